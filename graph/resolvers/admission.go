package resolvers

import (
	"context"
	"sync/atomic"
)

// Admission lets the server run one execution for many equivalent subscriptions (internal/server's
// fan-out): a subscription that joins an execution already running for the same document,
// variables and credential is still checked by its own resolver — the @auth directive, the scope's
// existence and reach — but its resolver then records that it was admitted and returns an empty
// stream instead of subscribing to the broker. Its events come from the running execution.
type Admission struct{ admitted atomic.Bool }

type admissionKey struct{}

// WithAdmission marks ctx as the admission of a subscription that joins a running execution.
func WithAdmission(ctx context.Context, a *Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, a)
}

// Admitted reports whether the subscription's resolver ran and every check passed.
func (a *Admission) Admitted() bool { return a.admitted.Load() }

// admitted is called by a subscription resolver once its checks have passed. On an admission it
// records the success and returns a closed stream, and the resolver returns that; otherwise it
// reports false and the resolver subscribes as usual.
func admitted[T any](ctx context.Context) (<-chan T, bool) {
	a, _ := ctx.Value(admissionKey{}).(*Admission)
	if a == nil {
		return nil, false
	}
	a.admitted.Store(true)
	stream := make(chan T)
	close(stream)
	return stream, true
}

// SendsCurrentValue reports whether the subscription field (as the schema names it) starts by
// sending the current value of what it follows rather than only the changes after it: a
// subscription that joins a running execution of it is sent that execution's latest value first,
// which is the current one (every change since was sent after it).
func SendsCurrentValue(field string) bool {
	return field == "generationChanged"
}
