package e2e

import (
	"context"
	"testing"
)

// The tests play the worker and the teammate's run through the API, as cmd/worker would: the worker
// credential starts a run, and the run's own credential calls the teammate's tools and completes it.

// run is one started turn of a teammate, with its credential.
type run struct {
	ID  string
	api api // bearer: the run token
}

// startRun starts a turn of teammateID for message (worker credential), in a fresh thread.
func startRun(t *testing.T, ctx context.Context, teammateID, message string) run {
	t.Helper()
	return startRunWith(t, ctx, map[string]any{"teammateId": teammateID, "message": message})
}

// startRunWith starts a turn with the given StartRunInput (worker credential).
func startRunWith(t *testing.T, ctx context.Context, input map[string]any) run {
	t.Helper()
	var out struct {
		StartRun struct {
			Run      struct{ ID string }
			RunToken string
		}
	}
	err := worker.do(ctx, `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } runToken } }`,
		map[string]any{"input": input}, &out)
	if err != nil {
		t.Fatalf("startRun %v: %v", input, err)
	}
	return run{ID: out.StartRun.Run.ID, api: srv.as(out.StartRun.RunToken)}
}

// toolResult is what a teammate's memory tool answered.
type toolResult struct {
	Outcome string
	Item    *memoryItem
}

// remember is the teammate's toolRemember; forEveryone asks for the shared scope.
func (r run) remember(t *testing.T, ctx context.Context, content string, forEveryone bool) toolResult {
	t.Helper()
	var out struct{ ToolRemember toolResult }
	err := r.api.do(ctx, `mutation($input: ToolRememberInput!) { toolRemember(input: $input) { outcome item { `+itemFields+` } } }`,
		map[string]any{"input": map[string]any{"content": content, "forEveryone": forEveryone}}, &out)
	if err != nil {
		t.Fatalf("toolRemember %q: %v", content, err)
	}
	return out.ToolRemember
}

// update is the teammate's toolUpdateMemory.
func (r run) update(t *testing.T, ctx context.Context, id string, baseRevision int, content string) toolResult {
	t.Helper()
	var out struct{ ToolUpdateMemory toolResult }
	err := r.api.do(ctx, `mutation($input: ToolUpdateMemoryInput!) { toolUpdateMemory(input: $input) { outcome item { `+itemFields+` } } }`,
		map[string]any{"input": map[string]any{"id": id, "baseRevision": baseRevision, "content": content}}, &out)
	if err != nil {
		t.Fatalf("toolUpdateMemory %s@%d: %v", id, baseRevision, err)
	}
	return out.ToolUpdateMemory
}

// forget is the teammate's toolForgetMemory.
func (r run) forget(t *testing.T, ctx context.Context, id string) toolResult {
	t.Helper()
	var out struct{ ToolForgetMemory toolResult }
	err := r.api.do(ctx, `mutation($input: ToolForgetMemoryInput!) { toolForgetMemory(input: $input) { outcome item { `+itemFields+` } } }`,
		map[string]any{"input": map[string]any{"id": id}}, &out)
	if err != nil {
		t.Fatalf("toolForgetMemory %s: %v", id, err)
	}
	return out.ToolForgetMemory
}

// complete ends the run with reply.
func (r run) complete(t *testing.T, ctx context.Context, reply string) {
	t.Helper()
	if err := r.api.do(ctx, `mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }`,
		map[string]any{"input": map[string]any{"reply": reply}}, nil); err != nil {
		t.Fatalf("completeRun: %v", err)
	}
}

// mustSuggest makes the teammate suggest content: its run's message doesn't ask to remember, so the
// save becomes a candidate (A2).
func mustSuggest(t *testing.T, ctx context.Context, teammateID, message, content string, forEveryone bool) memoryItem {
	t.Helper()
	r := startRun(t, ctx, teammateID, message)
	res := r.remember(t, ctx, content, forEveryone)
	if res.Outcome != "SUGGESTED" || res.Item == nil {
		t.Fatalf("toolRemember %q: outcome %s, want SUGGESTED", content, res.Outcome)
	}
	r.complete(t, ctx, "Noted.")
	return *res.Item
}

// forgetMemory forgets an item as the user.
func (a api) forgetMemory(ctx context.Context, id string) error {
	return a.do(ctx, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`, map[string]any{"id": id}, nil)
}

// itemStatus reads an item's status and content as the user.
func (a api) itemStatus(ctx context.Context, id string) (status, content string, err error) {
	var out struct {
		MemoryItem *struct{ Status, Content string }
	}
	if err = a.do(ctx, `query($id: ID!) { memoryItem(id: $id) { status content } }`, map[string]any{"id": id}, &out); err != nil || out.MemoryItem == nil {
		return "", "", err
	}
	return out.MemoryItem.Status, out.MemoryItem.Content, nil
}

// candidateCount is how many suggestions wait in a teammate's scope ("" for shared).
func (a api) candidateCount(ctx context.Context, teammateID string) (int, error) {
	var scope any
	if teammateID != "" {
		scope = teammateID
	}
	var out struct{ Candidates []struct{ ID string } }
	err := a.do(ctx, `query($t: ID) { candidates(scope: {teammateId: $t}) { id } }`, map[string]any{"t": scope}, &out)
	return len(out.Candidates), err
}

// runRating reads a run's rating ("" when none).
func (a api) runRating(ctx context.Context, id string) (string, error) {
	var out struct{ Run struct{ Rating *string } }
	err := a.do(ctx, `query($id: ID!) { run(id: $id) { rating } }`, map[string]any{"id": id}, &out)
	if out.Run.Rating == nil {
		return "", err
	}
	return *out.Run.Rating, err
}
