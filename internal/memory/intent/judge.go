package intent

// Kind says what a teammate's memory tool proposes; saves and updates (A1, A4) and forgets (A5) are
// judged by different rules.
type Kind int

const (
	// Save is a new item (toolRemember, toolRememberAboutUser).
	Save Kind = iota + 1
	// Update is new text for an existing item (toolUpdateMemory) (A4).
	Update
	// Forget erases an existing item (toolForgetMemory) (A5).
	Forget
)

// String names the kind for logs and test output.
func (k Kind) String() string {
	switch k {
	case Save:
		return "save"
	case Update:
		return "update"
	case Forget:
		return "forget"
	}
	return "unknown"
}

// Item is an existing item as far as the judgement needs it.
type Item struct {
	Key     string
	Content string
	// Pinned and Lesson items are only ever proposed for forgetting (A5).
	Pinned bool
	Lesson bool
}

// Write is the part of a tool call the judgement reads. It carries no ids: the verdict depends only
// on what the user said and what the teammate wants to write.
type Write struct {
	Kind Kind
	// Content is the text to save (Save, Update); unused for Forget.
	Content string
	// Key is the label the teammate chose for a Save ("" for none).
	Key string
	// Shared is set when the write changes the shared scope (A3, S3).
	Shared bool
	// Target is the item an Update or a Forget changes, as it is now.
	Target Item
}

// Verdict is the judgement. The zero value is no verdict, so a forgotten assignment can't pass for a
// confirmation.
type Verdict int

const (
	// Confirmed: the user asked for exactly this; the write happens.
	Confirmed Verdict = iota + 1
	// Suggested: the write waits for the user as a suggestion (A2), a proposed change (A4) or a
	// proposed forget (A5).
	Suggested
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Confirmed:
		return "confirmed"
	case Suggested:
		return "suggested"
	}
	return "unknown"
}

// Stage names the step of the reading that decided (A8).
type Stage string

// Decision is a verdict with its reason and the trace of what decided it (A8).
type Decision struct {
	Verdict Verdict
	Reason  Reason
	Trace   Trace
}

// Trace says where in the message the decision was made.
type Trace struct {
	// Sentence is the index of the deciding sentence (-1 when the whole message decided).
	Sentence int
	// Words are the user's words that decided, as written (at most a short quote; see Quote).
	Words string
	// Stage is the step of the reading that decided.
	Stage Stage
}

// Judge — temporary while the allow-list judge is written: everything waits.
func Judge(message string, w Write) Decision {
	return Decision{Verdict: Suggested, Reason: ReasonUnclear, Trace: Trace{Sentence: -1}}
}

// SourceSentence — temporary.
func SourceSentence(message, text string) string { return "" }
