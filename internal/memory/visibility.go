package memory

// EventVisible reports whether c may learn of e at all — its ids, its status, that it happened.
// Subscriptions ask it of every event before anything about the event reaches their client; which
// events a subscription follows (a scope, generations, teammates) is theirs to choose among the
// visible ones.
//
// The rules are the reads' own (RULES §4: a subscriber receives only events of scopes it may read):
// an event is in a scope, and c must read that scope (S1: a run reads the shared scope and its own
// teammate's, never another's); an event about a suggestion is the user's alone (A2,
// CanReadSuggestions), not even its id reaches anyone else.
func EventVisible(c Credential, e Event) bool {
	if !c.CanReadScope(e.Scope) {
		return false
	}
	return c.CanReadSuggestions() || !e.aboutSuggestion()
}

// aboutSuggestion reports whether e announces a suggestion: a candidate arriving, or a change to an
// item that is a suggestion (candidate, dismissed) or was one until this change. A forget that moves
// the generation forgot an active item (G1: creating or dismissing a candidate never moves it); one
// that doesn't forgot a suggestion. A status this code doesn't know counts as a suggestion: fail closed.
func (e Event) aboutSuggestion() bool {
	switch {
	case e.Candidate:
		return true
	case e.ItemID == "":
		return false // a generation or teammate change, about no item
	case Status(e.Status) == StatusActive:
		return false
	case Status(e.Status) == StatusForgotten:
		return !e.Generation
	default:
		return true
	}
}
