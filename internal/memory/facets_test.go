package memory_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/open-bot/memory/internal/memory"
)

// credentialFree are the exported methods of the request-facing facets that take no credential,
// each for its reason. Everything else a request can reach checks the caller's credential first.
var credentialFree = map[string]string{
	"Service.Background":         "returns the background facet, which runs as the service itself",
	"Service.Tools":              "returns the run-tool facet",
	"Service.Worker":             "returns the worker facet",
	"Service.AuthenticateRun":    "turns a run token into a credential: it is how a request gets one",
	"Service.CheckRunCredential": "re-checks a websocket's run credential after authentication; other credentials pass",
	"Service.EmbeddingModel":     "the configuration the service was built with, no memory",
	"Service.PurgeDelay":         "the configuration the service was built with, no memory",
	// Test hooks (export_test.go), compiled into the test binary only.
	"Service.SetBeforeGenerationRecheck": "test hook",
	"Service.SetBeforeToolWrite":         "test hook",
	"Service.SetInToolWriteWindow":       "test hook",
	"Service.SetAfterSwitchCheck":        "test hook",
}

// Every exported method of Service, Tools and Worker, called without a credential, answers
// ErrUnauthenticated and does nothing: the check is at the top of each, whoever calls it. The
// methods are enumerated by reflection, so a new one is checked without being listed.
func TestEveryEntryPointChecksItsCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	facets := []any{f.svc, f.svc.Tools(), f.svc.Worker()}
	called := 0
	for _, facet := range facets {
		v := reflect.ValueOf(facet)
		typ := v.Type()
		for i := range typ.NumMethod() {
			m := typ.Method(i)
			name := typ.Elem().Name() + "." + m.Name
			if _, ok := credentialFree[name]; ok {
				continue
			}
			called++
			errs, err := callWithoutCredential(v.Method(i))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if len(errs) == 0 {
				t.Errorf("%s answered no error without a credential", name)
			}
			for _, e := range errs {
				assert.ErrorIs(t, e, memory.ErrUnauthenticated, name)
			}
		}
	}
	// The enumeration found the facets' methods (not an empty set that passes by itself).
	assert.Greater(t, called, 60)
	for name := range credentialFree {
		facet, method, _ := cutDot(name)
		found := false
		for _, x := range facets {
			typ := reflect.TypeOf(x)
			if _, ok := typ.MethodByName(method); ok && typ.Elem().Name() == facet {
				found = true
			}
		}
		assert.True(t, found, "credentialFree lists %s, which isn't a method any more", name)
	}
}

func cutDot(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// anID is a well-formed id that names nothing: an id's validation never stands in for the credential
// check.
const anID = "00000000-0000-4000-8000-000000000001"

// callWithoutCredential calls m with a context that carries no credential and plausible other
// arguments, and returns the errors it answered (its error result, or each of a []error result).
func callWithoutCredential(m reflect.Value) (errs []error, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panicked: %v", p)
		}
	}()
	mt := m.Type()
	args := make([]reflect.Value, mt.NumIn())
	for i := range args {
		in := mt.In(i)
		switch {
		case in == reflect.TypeFor[context.Context]():
			args[i] = reflect.ValueOf(context.Background())
		case in.Kind() == reflect.String:
			args[i] = reflect.ValueOf(anID).Convert(in)
		case in == reflect.TypeFor[[]string]():
			args[i] = reflect.ValueOf([]string{anID})
		case in.Kind() == reflect.Pointer && in.Elem().Kind() == reflect.String:
			id := anID
			args[i] = reflect.ValueOf(&id)
		default:
			args[i] = reflect.Zero(in)
		}
	}
	if mt.NumIn() == 0 || mt.In(0) != reflect.TypeFor[context.Context]() {
		return nil, errors.New("doesn't take a context first: it can't check a credential")
	}
	for _, out := range m.Call(args) {
		switch x := out.Interface().(type) {
		case error:
			errs = append(errs, x)
		case []error:
			if len(x) == 0 {
				return nil, errors.New("answered an empty []error")
			}
			errs = append(errs, x...)
		}
	}
	return errs, nil
}
