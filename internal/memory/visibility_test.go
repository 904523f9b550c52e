package memory

import "testing"

// Who may learn of which event (RULES §4, S1, A2): every event NOTIFY carries, by every credential.
func TestEventVisible(t *testing.T) {
	t.Parallel()
	const own, other = "11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222"
	var (
		none   = Credential{}
		user   = Credential{Kind: CredentialUser, Connection: true}
		worker = Credential{Kind: CredentialWorker, Connection: true}
		run    = Credential{Kind: CredentialRun, RunID: "r", TeammateID: own, Connection: true}
	)
	item := func(scope string, status Status, generation, candidate bool) Event {
		return Event{Scope: scope, ItemID: "i", Revision: 1, Status: string(status), Generation: generation, Candidate: candidate}
	}
	for _, tc := range []struct {
		name  string
		event Event
		// user, worker, run of own, none
		want [4]bool
	}{
		{"active item, own scope", item(own, StatusActive, true, false), [4]bool{true, true, true, false}},
		{"active item, shared scope", item(ScopeShared, StatusActive, true, false), [4]bool{true, true, true, false}},
		{"active item, another teammate's scope", item(other, StatusActive, true, false), [4]bool{true, true, false, false}},
		{"active item forgotten", item(own, StatusForgotten, true, false), [4]bool{true, true, true, false}},
		{"candidate arrives", item(own, StatusCandidate, false, true), [4]bool{true, false, false, false}},
		{"candidate made again", item(own, StatusCandidate, false, false), [4]bool{true, false, false, false}},
		{"candidate dismissed", item(own, StatusDismissed, false, false), [4]bool{true, false, false, false}},
		{"suggestion forgotten", item(own, StatusForgotten, false, false), [4]bool{true, false, false, false}},
		{"unknown status", item(own, Status("archived"), true, false), [4]bool{true, false, false, false}},
		{"generation only", Event{Scope: own, Generation: true}, [4]bool{true, true, true, false}},
		{"generation only, another teammate's", Event{Scope: other, Generation: true}, [4]bool{true, true, false, false}},
		{"teammate renamed", Event{Scope: own, Teammate: TeammateRenamed}, [4]bool{true, true, true, false}},
		{"another teammate deleted", Event{Scope: other, Generation: true, Teammate: TeammateDeleted}, [4]bool{true, true, false, false}},
	} {
		for i, c := range []Credential{user, worker, run, none} {
			if got := EventVisible(c, tc.event); got != tc.want[i] {
				t.Errorf("%s, seen by %s: visible %v, want %v", tc.name, c.Kind, got, tc.want[i])
			}
		}
	}
}
