package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/graph/generated"
	"github.com/open-bot/memory/graph/resolvers"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// These tests drive the fan-out through gqlgen's real executor and the real resolvers, with events
// published straight into the broker, so that a subscriber can be made slow by simply not asking
// for its next response. The websocket tests (shared_subscriptions_test.go) cover the same over the
// wire with events from PostgreSQL.

// fanoutWait bounds every wait for a response.
const fanoutWait = 15 * time.Second

// fanoutHarness is the GraphQL executor the server builds, without the transports.
type fanoutHarness struct {
	t      *testing.T
	exec   *executor.Executor
	broker *events.Broker
	shared *sharedSubscriptions
}

func newFanoutHarness(t *testing.T) *fanoutHarness {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	broker := events.NewBroker()
	root := &resolvers.Resolver{Memory: memory.NewService(dbtest.Pool(t), log), Events: broker, Log: log}
	exec := executor.New(generated.NewExecutableSchema(root.Config()))
	exec.AroundOperations(root.WithLoaders)
	shared := newSharedSubscriptions()
	exec.Use(shared)
	exec.SetErrorPresenter(resolvers.ErrorPresenter(log))
	exec.SetRecoverFunc(resolvers.Recover(log))
	return &fanoutHarness{t: t, exec: exec, broker: broker, shared: shared}
}

// subscriber is one websocket subscription as the transport runs it: its own context, ended by
// cancel, and the stream of its responses.
type subscriber struct {
	ctx       context.Context
	cancel    context.CancelFunc
	responses graphql.ResponseHandler
}

// subscribe starts query as a websocket subscription of cred would.
func (h *fanoutHarness) subscribe(cred memory.Credential, query string) *subscriber {
	h.t.Helper()
	ctx, cancel := context.WithCancel(h.t.Context())
	h.t.Cleanup(cancel)
	ctx = memory.WithCredential(withTrackedConn(graphql.StartOperationTrace(ctx), &trackedConn{}), cred)
	oc, errs := h.exec.CreateOperationContext(ctx, &graphql.RawParams{Query: query})
	require.Empty(h.t, errs)
	responses, _ := h.exec.DispatchOperation(ctx, oc)
	return &subscriber{ctx: ctx, cancel: cancel, responses: responses}
}

// next is the subscriber's next response, or nil when its stream ended.
func (s *subscriber) next(t *testing.T) *graphql.Response {
	t.Helper()
	got := make(chan *graphql.Response, 1)
	go func() { got <- s.responses(s.ctx) }()
	select {
	case r := <-got:
		return r
	case <-time.After(fanoutWait):
		t.Fatal("no response")
		return nil
	}
}

// deleted is the event of teammate id's deletion: teammatesChanged sends it without reading
// anything, so every response is the event's own.
func deleted(id string) memory.Event {
	return memory.Event{Scope: id, Generation: true, Teammate: memory.TeammateDeleted}
}

// deletedID is the teammate id a teammatesChanged response names.
func deletedID(t *testing.T, r *graphql.Response) string {
	t.Helper()
	require.NotNil(t, r, "the stream ended")
	require.Empty(t, r.Errors)
	var data struct{ TeammatesChanged struct{ TeammateID string } }
	require.NoError(t, json.Unmarshal(r.Data, &data), "%s", r.Data)
	return data.TeammatesChanged.TeammateID
}

var (
	userCred   = memory.Credential{Kind: memory.CredentialUser, Connection: true}
	workerCred = memory.Credential{Kind: memory.CredentialWorker, Connection: true}
)

const (
	teammatesChanged     = `subscription { teammatesChanged { teammateId change } }`
	teammatesChangedOnly = `subscription { teammatesChanged { teammateId } }`
)

// Subscriptions with the same document and credential share one execution: the broker holds one
// subscription per group, and every member of a group is handed the very same response, resolved
// and serialised once.
func TestSharedSubscriptionsOneExecutionPerGroup(t *testing.T) {
	t.Parallel()
	h := newFanoutHarness(t)
	groups := [][]*subscriber{{}, {}, {}}
	for range 5 {
		groups[0] = append(groups[0], h.subscribe(userCred, teammatesChanged))
	}
	for range 3 {
		groups[1] = append(groups[1], h.subscribe(workerCred, teammatesChanged))
	}
	for range 2 {
		groups[2] = append(groups[2], h.subscribe(userCred, teammatesChangedOnly))
	}
	require.Equal(t, len(groups), h.broker.Subscribers(), "executions")

	h.broker.Publish(deleted("t1"))
	var first []*graphql.Response
	for _, g := range groups {
		r := g[0].next(t)
		require.Equal(t, "t1", deletedID(t, r))
		for _, s := range g[1:] {
			require.Same(t, r, s.next(t), "an equivalent subscriber got a response of its own")
		}
		for _, other := range first {
			require.NotSame(t, other, r, "two groups share a response")
		}
		first = append(first, r)
	}
	require.JSONEq(t, `{"teammatesChanged": {"teammateId": "t1", "change": "DELETED"}}`, string(first[0].Data))
	require.JSONEq(t, `{"teammatesChanged": {"teammateId": "t1"}}`, string(first[2].Data))

	// The last subscriber of a group to leave ends its execution; the others run on.
	for _, s := range groups[1] {
		s.cancel()
		require.Nil(t, s.next(t))
	}
	require.Eventually(t, func() bool { return h.broker.Subscribers() == 2 }, fanoutWait, 10*time.Millisecond)
	h.broker.Publish(deleted("t2"))
	require.Equal(t, "t2", deletedID(t, groups[0][4].next(t)))
}

// A subscriber that doesn't keep up is completed once events.SubscriberBuffer responses wait for it;
// the others of its group get every response meanwhile. What waited for it is still each response's
// own data: the executor reuses its buffer for the next response.
func TestSharedSubscriptionsSlowSubscriber(t *testing.T) {
	t.Parallel()
	h := newFanoutHarness(t)
	fast := h.subscribe(userCred, teammatesChanged)
	slow := h.subscribe(userCred, teammatesChanged)
	require.Equal(t, 1, h.broker.Subscribers())

	const n = 2 * events.SubscriberBuffer
	for i := range n {
		h.broker.Publish(deleted(fmt.Sprint("t", i)))
		require.Equal(t, fmt.Sprint("t", i), deletedID(t, fast.next(t)), "the fast subscriber waited for the slow one")
	}
	for i := range events.SubscriberBuffer {
		require.Equal(t, fmt.Sprint("t", i), deletedID(t, slow.next(t)))
	}
	require.Nil(t, slow.next(t), "the slow subscriber was not completed")

	h.broker.Publish(deleted("last"))
	require.Equal(t, "last", deletedID(t, fast.next(t)))
	require.Equal(t, 1, h.broker.Subscribers())
}

// groups is how many groups the fan-out indexes now.
func (h *fanoutHarness) groups() int {
	h.shared.mu.Lock()
	defer h.shared.mu.Unlock()
	return len(h.shared.groups)
}

// Subscribers join, read, stop reading and leave their group while events are handed out, for the
// race detector: no response is queued on a completed subscriber (that would panic), each
// subscriber gets its responses in the order of the events, and once everyone has left there is no
// group and no execution left.
func TestSharedSubscriptionsConcurrentJoinLeaveBroadcast(t *testing.T) {
	t.Parallel()
	h := newFanoutHarness(t)
	const (
		readers = 8
		rounds  = 100
	)
	// Events flow until every reader is done.
	stop := make(chan struct{})
	publisherDone := make(chan struct{})
	go func() {
		defer close(publisherDone)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			h.broker.Publish(deleted(fmt.Sprint("t", i)))
			if i%(events.SubscriberBuffer/2) == 0 {
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	errs := make(chan error, readers)
	var received atomic.Int64
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(r), 2))
			query := teammatesChanged
			if r%2 == 1 {
				query = teammatesChangedOnly // two groups
			}
			for range rounds {
				s := h.subscribe(userCred, query)
				last := -1
				// Sometimes none, sometimes more than its queue holds: it may be completed.
				for range rng.IntN(2 * events.SubscriberBuffer) {
					resp := s.responses(s.ctx)
					if resp == nil {
						break // completed
					}
					var data struct{ TeammatesChanged struct{ TeammateID string } }
					if err := json.Unmarshal(resp.Data, &data); err != nil {
						errs <- err
						return
					}
					n, err := strconv.Atoi(strings.TrimPrefix(data.TeammatesChanged.TeammateID, "t"))
					if err != nil || n <= last {
						errs <- fmt.Errorf("got %q after t%d", data.TeammatesChanged.TeammateID, last)
						return
					}
					last = n
					received.Add(1)
				}
				// Leave while responses are still being handed out to it.
				s.cancel()
				_ = s.responses(s.ctx)
			}
		})
	}
	wg.Wait()
	close(stop)
	<-publisherDone
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Positive(t, received.Load(), "no subscriber received anything")
	require.Eventually(t, func() bool { return h.groups() == 0 && h.broker.Subscribers() == 0 }, fanoutWait, 10*time.Millisecond,
		"groups or executions outlived their subscribers")
}
