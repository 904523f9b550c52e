package server_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
)

// Deleting a teammate while its runs write (F7): the delete and every run write take their locks in
// one order (tx.go), and a deadlock or serialization failure is retried inside the service, so
// neither ever answers INTERNAL. Each round starts eight runs of a fresh teammate on the API's real
// pool, lets each write through the real tools over HTTP — suggestions, which insert items (and so
// take the teammate row's key lock, as every insert that names the teammate does), and memory
// searches — and a worker start more runs, and deletes the teammate once every run has written. The
// delete must succeed; every run then ends with its usual answer (UNAUTHENTICATED: its credential
// went with the teammate), the worker's next start with NOT_FOUND. Without one lock order such
// deletes fail with INTERNAL ("deadlock detected"), and so do many tool calls.
func TestDeleteTeammateWhileItsRunsWrite(t *testing.T) {
	t.Parallel()
	// A run makes as many suggestions as it likes here: past the limit a tool writes nothing, and the
	// race is with the writes.
	api := apitest.StartWith(t, dbtest.URL(t), func(o *app.Options) { o.RunSuggestionLimit = 1_000_000 })
	const rounds, runs = 30, 8
	ctx := t.Context()
	var (
		mu          sync.Mutex
		deleteCodes = map[string]int{} // "" is success
		toolCodes   = map[string]int{} // the answer that ended each run's writes
		startCodes  = map[string]int{} // the answer that ended the worker's starts
		transport   []error
		writes      int
	)
	post := func(token, query string, vars map[string]any) (apitest.Result, bool) {
		res, err := api.Post(ctx, apitest.Bearer(token), query, vars)
		if err != nil {
			mu.Lock()
			transport = append(transport, err)
			mu.Unlock()
			return res, false
		}
		return res, true
	}
	start := func(tm string) (string, string) {
		res, ok := post(worker, `mutation($t: ID!, $m: String!) { startRun(input: {teammateId: $t, message: $m}) { runToken } }`,
			map[string]any{"t": tm, "m": "Hello, how are you today?"})
		if !ok || len(res.Errors) > 0 {
			return "", res.Code()
		}
		var out struct{ StartRun struct{ RunToken string } }
		if err := json.Unmarshal(res.Data, &out); err != nil || out.StartRun.RunToken == "" {
			return "", "NO_TOKEN"
		}
		return out.StartRun.RunToken, ""
	}

	for round := range rounds {
		tm := api.CreateTeammate(t, fmt.Sprintf("Doomed %d", round))
		tokens := make([]string, runs)
		for i := range tokens {
			var code string
			tokens[i], code = start(tm)
			require.Empty(t, code, "startRun before the delete")
		}
		var wg sync.WaitGroup
		wrote := make(chan struct{}, runs)
		for r, token := range tokens {
			wg.Go(func() {
				signalled := false
				signal := func() {
					if !signalled {
						signalled = true
						wrote <- struct{}{}
					}
				}
				defer signal() // a run that ended before writing must not hold up the delete
				for n := 0; ; n++ {
					query, vars := `mutation($c: String!) { toolRemember(input: {content: $c}) { outcome } }`,
						map[string]any{"c": fmt.Sprintf("Suggestion %d of run %d in round %d", n, r, round)}
					if n%3 == 2 {
						query, vars = `query($q: String!) { toolSearchMemory(query: $q) { id } }`, map[string]any{"q": "suggestion"}
					}
					res, ok := post(token, query, vars)
					if !ok {
						return
					}
					if len(res.Errors) > 0 {
						mu.Lock()
						toolCodes[res.Code()]++
						mu.Unlock()
						return
					}
					mu.Lock()
					writes++
					mu.Unlock()
					signal()
				}
			})
		}
		wg.Go(func() { // the worker keeps starting runs of the teammate until it is gone
			for {
				token, code := start(tm)
				if token == "" {
					mu.Lock()
					startCodes[code]++
					mu.Unlock()
					return
				}
			}
		})
		for range runs {
			select {
			case <-wrote:
			case <-time.After(2 * time.Minute):
				t.Fatal("the runs did not write")
			}
		}
		// A delete that fails is tried again (a few times): the runs write until the teammate is gone.
		for attempt := 0; ; attempt++ {
			res, ok := post(user, `mutation($id: ID!) { deleteTeammate(input: {id: $id}) { teammateId } }`, map[string]any{"id": tm})
			mu.Lock()
			deleteCodes[res.Code()]++
			mu.Unlock()
			if !ok || res.Code() == "" || attempt == 5 {
				break
			}
		}
		stopped := make(chan struct{})
		go func() { wg.Wait(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(time.Minute):
			mu.Lock()
			answers, tools := maps.Clone(deleteCodes), maps.Clone(toolCodes)
			mu.Unlock()
			t.Fatalf("round %d: the runs still write a minute after the deletes; deletes so far answered %v, ended runs %v",
				round, answers, tools)
		}
	}

	t.Logf("%d deletes under %d runs' writes: delete answers %v; %d tool calls succeeded, runs ended with %v; the worker's starts ended with %v",
		rounds, runs, deleteCodes, writes, toolCodes, startCodes)
	require.Empty(t, transport, "transport errors")
	assert.Equal(t, map[string]int{"": rounds}, deleteCodes, "every delete succeeds at once")
	assert.Zero(t, deleteCodes["INTERNAL"]+toolCodes["INTERNAL"]+startCodes["INTERNAL"], "INTERNAL answers")
	assert.Equal(t, []string{"UNAUTHENTICATED"}, slices.Sorted(maps.Keys(toolCodes)), "the answers that ended the runs")
	assert.Equal(t, rounds*runs, toolCodes["UNAUTHENTICATED"], "every run ends with its credential")
	assert.Equal(t, map[string]int{"NOT_FOUND": rounds}, startCodes, "a start after the delete finds no teammate")
	assert.Positive(t, writes)
}
