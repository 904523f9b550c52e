package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/packet"
	"github.com/open-bot/memory/internal/metrics"
)

// PacketURI is the resource holding the run's memory packet (P5, P7).
const PacketURI = "memory://packet"

// Name is the server's name in the MCP handshake; clients show it.
const Name = "memory"

// version is the server version sent in the MCP handshake.
const version = "1.0.0"

// Instructions are what a client may put in the model's system prompt: how the tools behave, in
// the model's terms.
const Instructions = `Memory for this turn of a teammate: facts about the user, preferences, lessons and notes.
The memory relevant to the user's request is in the resource ` + PacketURI + ` (the worker may also have given it to you). Each entry starts with a header [memory:<id>@<revision>; <scope>; <kind>]; update_memory and forget_memory take that id and revision.
Which memory you reach comes from this session: this teammate's own memory and the memory all teammates share, nothing else.
A save or change is confirmed only when the user's own words in their message for this turn ask for it and contain the text you write; otherwise it waits as a suggestion the user confirms. Forgetting erases only when the user's message asks to forget that item; otherwise the user is asked.
Each tool answers an outcome (SAVED, SUGGESTED, UNCHANGED, FORGOTTEN or REFUSED) and a message: tell the user plainly what happened. When the user's message was judged, the answer also names the reason by a stable code (like not_in_sentence, taken_back or protected); the user sees the same reason in plain words beside the suggestion.
If a tool answers that memory changed during this task, the turn is over: tell the user exactly that message and call no more tools.`

// New returns the MCP server of the teammates' memory tools. It holds no state of its own: each
// call acts with the run credential that came with its request (see TokenInfo), so one server
// serves every run. Each tool call is counted in m by tool and outcome code (nil: not counted).
func New(svc *memory.Service, log *slog.Logger, m *metrics.Metrics) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Teammate memory", Version: version},
		&mcp.ServerOptions{Instructions: Instructions, Capabilities: &mcp.ServerCapabilities{}})
	t := tools{svc: svc, log: log, metrics: m}
	addTool(s, t, &mcp.Tool{Name: "remember", Description: descRemember, InputSchema: schemaRemember,
		Annotations: &mcp.ToolAnnotations{Title: "Remember", DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}, t.remember)
	addTool(s, t, &mcp.Tool{Name: "remember_about_user", Description: descRememberAboutUser, InputSchema: schemaRememberAboutUser,
		Annotations: &mcp.ToolAnnotations{Title: "Remember about the user", DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}, t.rememberAboutUser)
	addTool(s, t, &mcp.Tool{Name: "update_memory", Description: descUpdate, InputSchema: schemaUpdate,
		Annotations: &mcp.ToolAnnotations{Title: "Correct a memory", DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}, t.update)
	addTool(s, t, &mcp.Tool{Name: "forget_memory", Description: descForget, InputSchema: schemaForget,
		Annotations: &mcp.ToolAnnotations{Title: "Forget a memory", DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}}, t.forget)
	addTool(s, t, &mcp.Tool{Name: "search_memory", Description: descSearchMemory, InputSchema: schemaSearch,
		Annotations: &mcp.ToolAnnotations{Title: "Search memory", ReadOnlyHint: true, OpenWorldHint: ptr(false)}}, t.searchMemory)
	addTool(s, t, &mcp.Tool{Name: "search_history", Description: descSearchHistory, InputSchema: schemaSearch,
		Annotations: &mcp.ToolAnnotations{Title: "Search past conversations", ReadOnlyHint: true, OpenWorldHint: ptr(false)}}, t.searchHistory)
	s.AddResource(&mcp.Resource{URI: PacketURI, Name: "packet", Title: "Memory packet of this turn", MIMEType: "text/plain",
		Description: descPacket}, t.packet)
	return s
}

func ptr[T any](v T) *T { return &v }

// graphQLTwins are, for each tool and the packet resource, the GraphQL field of the run credential
// that calls the same domain method (RULES §5: they behave exactly alike).
var graphQLTwins = map[string][2]string{
	"remember":            {"Mutation", "toolRemember"},
	"remember_about_user": {"Mutation", "toolRememberAboutUser"},
	"update_memory":       {"Mutation", "toolUpdateMemory"},
	"forget_memory":       {"Mutation", "toolForgetMemory"},
	"search_memory":       {"Query", "toolSearchMemory"},
	"search_history":      {"Query", "toolSearchHistory"},
	// The packet is laid out again from the run's memory context (P7).
	PacketURI: {"Run", "memoryContext"},
}

// GraphQLTwin is the GraphQL field (its object and name, as the schema names them) that does what
// the tool or resource named name does, or "" and "" for a name the server doesn't serve. The API
// applies that field's limits to the call (HTTPOptions.Admit), so a tool is limited exactly like
// its twin.
func GraphQLTwin(name string) (object, field string) {
	twin := graphQLTwins[name]
	return twin[0], twin[1]
}

// credentialKey is where TokenInfo keeps the run credential.
const credentialKey = "memory.credential"

// TokenInfo carries c into the tool handlers. The HTTP handler authenticates each request with the
// API's own credential code and hands the result to the SDK as its TokenInfo, which the SDK gives
// every handler with the request (RequestExtra); UserID is the run, which would also tie a
// stateful session to it.
func TokenInfo(c memory.Credential) *auth.TokenInfo {
	return &auth.TokenInfo{UserID: c.RunID, Extra: map[string]any{credentialKey: c}}
}

// withCredential puts the request's run credential on ctx, where the domain looks for it; a request
// without one gets a context without one, which the domain refuses (ErrUnauthenticated).
func withCredential(ctx context.Context, extra *mcp.RequestExtra) context.Context {
	if extra == nil || extra.TokenInfo == nil {
		return ctx
	}
	c, ok := extra.TokenInfo.Extra[credentialKey].(memory.Credential)
	if !ok {
		return ctx
	}
	return memory.WithCredential(ctx, c)
}

type tools struct {
	svc     *memory.Service
	log     *slog.Logger
	metrics *metrics.Metrics
}

// Arguments of the tools, decoded after the SDK validated them against the schemas below.
type (
	rememberArgs struct {
		Content        string  `json:"content"`
		Key            *string `json:"key"`
		Kind           *string `json:"kind"`
		ForEveryone    *bool   `json:"for_everyone"`
		IdempotencyKey *string `json:"idempotency_key"`
	}
	aboutUserArgs struct {
		Content        string  `json:"content"`
		Key            *string `json:"key"`
		IdempotencyKey *string `json:"idempotency_key"`
	}
	updateArgs struct {
		ID             string  `json:"id"`
		BaseRevision   int     `json:"base_revision"`
		Content        string  `json:"content"`
		IdempotencyKey *string `json:"idempotency_key"`
	}
	forgetArgs struct {
		ID             string  `json:"id"`
		IdempotencyKey *string `json:"idempotency_key"`
	}
	searchArgs struct {
		Query string `json:"query"`
	}
)

// WriteResult is the structured answer of remember, remember_about_user, update_memory and
// forget_memory; the text answer says the same in words.
type WriteResult struct {
	Outcome string   `json:"outcome" jsonschema:"SAVED, SUGGESTED, UNCHANGED, FORGOTTEN or REFUSED"`
	Message string   `json:"message" jsonschema:"what happened, in words to pass on to the user"`
	Reason  string   `json:"reason,omitempty" jsonschema:"the judge's code for why the write was confirmed or waits (like asked, not_in_sentence, taken_back, protected); absent when the user's message wasn't judged"`
	Item    *ItemRef `json:"item,omitempty" jsonschema:"the memory or suggestion written, when there is one"`
	Adopted bool     `json:"adopted" jsonschema:"true when this run's own change became the memory the run works with"`
}

// ItemRef names an item a tool wrote, without its text.
type ItemRef struct {
	ID       string `json:"id"`
	Revision int    `json:"revision"`
	Status   string `json:"status" jsonschema:"active (confirmed memory), candidate (a suggestion waiting for the user) or forgotten"`
	Scope    string `json:"scope" jsonschema:"shared, or this teammate's id"`
	Kind     string `json:"kind"`
}

// SearchResult is search_memory's structured answer.
type SearchResult struct {
	Items []FoundItem `json:"items"`
}

// FoundItem is one memory search_memory found.
type FoundItem struct {
	ID       string  `json:"id"`
	Revision int     `json:"revision" jsonschema:"the revision to give update_memory as base_revision"`
	Scope    string  `json:"scope" jsonschema:"shared, or this teammate's id"`
	Kind     string  `json:"kind"`
	Key      *string `json:"key,omitempty"`
	Content  string  `json:"content"`
	Pinned   bool    `json:"pinned"`
}

// HistoryResult is search_history's structured answer.
type HistoryResult struct {
	Messages []FoundMessage `json:"messages"`
}

// FoundMessage is one message search_history found.
type FoundMessage struct {
	ID        string    `json:"id"`
	ThreadID  string    `json:"thread_id"`
	RunID     *string   `json:"run_id,omitempty"`
	Role      string    `json:"role" jsonschema:"user or assistant"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"created_at"`
}

func (t tools) remember(ctx context.Context, req *mcp.CallToolRequest, a rememberArgs) (string, WriteResult, error) {
	in := memory.RememberInput{Content: a.Content, Key: a.Key, Kind: memory.KindFact, IdempotencyKey: a.IdempotencyKey}
	if a.Kind != nil {
		in.Kind = memory.Kind(*a.Kind)
	}
	if a.ForEveryone != nil {
		in.ForEveryone = *a.ForEveryone
	}
	res, err := t.svc.Tools().Remember(withCredential(ctx, req.Extra), in)
	return written(res, err)
}

func (t tools) rememberAboutUser(ctx context.Context, req *mcp.CallToolRequest, a aboutUserArgs) (string, WriteResult, error) {
	res, err := t.svc.Tools().Remember(withCredential(ctx, req.Extra),
		memory.RememberInput{Content: a.Content, Key: a.Key, Kind: memory.KindFact, ForEveryone: true, IdempotencyKey: a.IdempotencyKey})
	return written(res, err)
}

func (t tools) update(ctx context.Context, req *mcp.CallToolRequest, a updateArgs) (string, WriteResult, error) {
	res, err := t.svc.Tools().UpdateMemory(withCredential(ctx, req.Extra), memory.ToolUpdateInput{
		ID: a.ID, BaseRevision: a.BaseRevision, Content: a.Content, IdempotencyKey: a.IdempotencyKey,
	})
	return written(res, err)
}

func (t tools) forget(ctx context.Context, req *mcp.CallToolRequest, a forgetArgs) (string, WriteResult, error) {
	res, err := t.svc.Tools().ForgetMemory(withCredential(ctx, req.Extra), memory.ToolForgetInput{ID: a.ID, IdempotencyKey: a.IdempotencyKey})
	return written(res, err)
}

// written answers a write tool: the outcome and its message as text (what the model passes on), the
// judge's reason code when it decided (A8; a code, never memory text), and the same as structured
// content.
func written(res memory.ToolResult, err error) (string, WriteResult, error) {
	if err != nil {
		return "", WriteResult{}, err
	}
	out := WriteResult{Outcome: strings.ToUpper(string(res.Outcome)), Message: res.Message, Reason: string(res.Reason),
		Adopted: res.Adopted}
	text := out.Outcome + ": " + res.Message
	if out.Reason != "" {
		text += "\n[reason: " + out.Reason + "]"
	}
	if i := res.Item; i != nil {
		out.Item = &ItemRef{ID: i.ID, Revision: i.Revision, Status: string(i.Status), Scope: i.Scope, Kind: string(i.Kind)}
		text += fmt.Sprintf("\n[memory:%s@%d; %s; %s; %s]", i.ID, i.Revision, i.Scope, i.Kind, i.Status)
	}
	return text, out, nil
}

// found is "1 memory found.", "2 memories found.": the first line of a search's text.
func found(n int, one, many string) string {
	if n == 1 {
		return "1 " + one + " found."
	}
	return fmt.Sprintf("%d %s found.", n, many)
}

func (t tools) searchMemory(ctx context.Context, req *mcp.CallToolRequest, a searchArgs) (string, SearchResult, error) {
	items, err := t.svc.Tools().SearchMemory(withCredential(ctx, req.Extra), a.Query)
	if err != nil {
		return "", SearchResult{}, err
	}
	out := SearchResult{Items: make([]FoundItem, 0, len(items))}
	var b strings.Builder
	b.WriteString(found(len(items), "memory", "memories"))
	for _, i := range items {
		out.Items = append(out.Items, FoundItem{ID: i.ID, Revision: i.Revision, Scope: i.Scope, Kind: string(i.Kind),
			Key: i.Key, Content: i.Content, Pinned: i.Pinned})
		// The packet's layout and encoding (P5), so the model reads ids and revisions the same way
		// everywhere and no item's content can pass for another entry.
		b.WriteString("\n\n" + packet.Entry(i.PacketItem()))
	}
	return b.String(), out, nil
}

func (t tools) searchHistory(ctx context.Context, req *mcp.CallToolRequest, a searchArgs) (string, HistoryResult, error) {
	messages, err := t.svc.Tools().SearchHistory(withCredential(ctx, req.Extra), a.Query)
	if err != nil {
		return "", HistoryResult{}, err
	}
	out := HistoryResult{Messages: make([]FoundMessage, 0, len(messages))}
	var b strings.Builder
	b.WriteString(found(len(messages), "message", "messages"))
	for _, m := range messages {
		out.Messages = append(out.Messages, FoundMessage{ID: m.ID, ThreadID: m.ThreadID, RunID: m.RunID, Role: m.Role,
			Content: m.Content, CreatedAt: m.CreatedAt})
		fmt.Fprintf(&b, "\n\n[%s, %s, thread %s]\n%s", m.Role, m.CreatedAt.UTC().Format(time.RFC3339), m.ThreadID, m.Content)
	}
	return b.String(), out, nil
}

func (t tools) packet(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if req.Params.URI != PacketURI {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	text, err := t.svc.Tools().RunPacket(withCredential(ctx, req.Extra))
	if err != nil {
		return nil, errors.New(t.toolError(ctx, err))
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: PacketURI, MIMEType: "text/plain", Text: text}}}, nil
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// errorResult is a tool error (isError) with text: what the model reads.
func errorResult(text string) *mcp.CallToolResult {
	r := textResult(text)
	r.IsError = true
	return r
}

// Messages of the tool errors. Each starts with the code GraphQL would answer (RULES §5), so a
// model or a program can tell them apart, except MEMORY_CHANGED's, which is exactly what the model
// should tell the user (G5).
const (
	msgForbidden       = "FORBIDDEN: that memory belongs to another teammate; this run can only reach its own teammate's memory and the shared memory."
	msgNotFound        = "NOT_FOUND: no memory with that id is visible to this run (it may have been forgotten)."
	msgUnauthenticated = "UNAUTHENTICATED: this run has ended (completed, interrupted or cancelled), so its memory tools no longer work."
	msgUnavailable     = "UNAVAILABLE: the memory database is unavailable right now; try again shortly."
	msgInternal        = "INTERNAL: the memory service failed; this is a defect, and it has been logged."
	msgMemoryOff       = `MEMORY_OFF: the user turned off "Use memory" for this teammate, so nothing was searched. This is not an empty result: answer without memory.`
)

// toolErrorText is the text of the tool error for err: what the model reads. It never quotes memory
// text: the domain's errors don't (F5), and anything else is masked as INTERNAL.
func toolErrorText(err error) (text string, internal bool) {
	class := memory.Classify(err)
	switch class.Code {
	case memory.CodeMemoryChanged:
		return class.Message, false
	case memory.CodeConflict:
		return "CONFLICT: " + class.Message + ". Nothing was written; read the memory again (search_memory) and base the change on revision " +
			strconv.Itoa(class.Conflict.Current) + ".", false
	case memory.CodeBadUserInput:
		var bad *memory.ValidationError
		errors.As(err, &bad)
		return "BAD_USER_INPUT: " + argumentName(bad.Field) + ": " + bad.Reason, false
	case memory.CodeForbidden:
		return msgForbidden, false
	case memory.CodeNotFound:
		return msgNotFound, false
	case memory.CodeUnauthenticated:
		return msgUnauthenticated, false
	case memory.CodeUnavailable:
		return msgUnavailable, false
	case memory.CodeMemoryOff:
		return msgMemoryOff, false
	}
	return msgInternal, true
}

// errorCode is the code a tool error's text starts with (BAD_USER_INPUT, CONFLICT …), for the
// metrics; memory changed mid-turn, whose text is what the model tells the user, is MEMORY_CHANGED.
func errorCode(text string) string {
	if text == memory.ErrMemoryChangedMidTurn.Error() || text == memory.ErrMemoryChanged.Error() {
		return memory.CodeMemoryChanged
	}
	code, _, _ := strings.Cut(text, ":")
	return metrics.Code(code)
}

// toolError is err as the tool error a handler answers. A defect is logged (without memory text:
// domain errors wrap none) and masked.
func (t tools) toolError(ctx context.Context, err error) string {
	text, _ := toolErrorText(err)
	memory.Classify(err).Log(ctx, t.log, "mcp tool error", err)
	return text
}

// The tools' descriptions, written for the model that calls them.
const (
	descRemember = `Save something you learned to this teammate's memory, or with for_everyone to the memory every teammate shares.
It becomes a confirmed memory only when the user's own words in their message for this turn ask you to remember it (remember, save, keep in mind, note …) and contain the text you save word for word. Otherwise it is kept as a suggestion that the user confirms or dismisses: never claim a suggestion was saved.
Whose memory it goes to comes from this session; there is no teammate or scope argument.
When the user turned "Save to memory" off for this teammate, every save waits as a suggestion, even one the user asked for.
Answers SAVED, SUGGESTED, UNCHANGED (already remembered) or REFUSED (this turn made too many suggestions), with a message to pass on to the user.`

	descRememberAboutUser = `Save a fact about the user to the profile every teammate shares (the shared memory).
It is confirmed only when the user's own words in this turn ask to remember it for every teammate ("remember for all teammates that …", "everyone should know …") and contain the text you save word for word; otherwise it waits as a suggestion the user confirms.
Answers SAVED, SUGGESTED, UNCHANGED or REFUSED, with a message to pass on to the user.`

	descUpdate = `Correct a memory you can see (this teammate's own or the shared memory), by its id and the revision you read it at: the header [memory:<id>@<revision>; …] in the packet or in search_memory's answer.
The change is applied only when the user's own words in this turn ask for it, name that memory (its key or most of its words) and contain the new text; otherwise it is proposed to the user, who confirms it. With "Save to memory" off, it is always proposed.
Answers SAVED, SUGGESTED or UNCHANGED. If the memory changed since that revision, nothing is written and the answer is a CONFLICT naming the current revision.`

	descForget = `Forget a memory you can see, by its id (from the packet or search_memory).
It is erased only when the user's own words in this turn ask to forget, delete or remove that memory and name it (its key or most of its words). Otherwise nothing is erased: the user is asked to confirm forgetting it. With "Save to memory" off, the user is always asked.
Answers FORGOTTEN, SUGGESTED (the user is asked) or UNCHANGED (the user is already being asked).`

	descSearchMemory = `Search this teammate's memory and the shared memory — confirmed, current memories only — for words or a phrase. Returns up to 20, best first, each headed [memory:<id>@<revision>; <scope>; <kind>].
When the user turned "Use memory" off for this teammate, the answer is a MEMORY_OFF error instead: memory is off, which is not the same as nothing found.`

	descSearchHistory = `Search this teammate's own earlier conversations (the user's messages and the replies) for words or a phrase. Returns up to 20 messages, best first. Conversations are not memory: to keep something, use remember.
When the user turned "Use memory" off for this teammate, the answer is a MEMORY_OFF error instead.`

	descIdempotencyKey = `"Optional: a fresh id of your choosing (a UUID) for this call. If the call fails with UNAVAILABLE or times out, call again with the same arguments and the same key: a call that did go through answers what it did the first time instead of writing twice. Never reuse a key for another call."`

	descPacket = `The memory this turn was given when it started: the entries most relevant to the user's request, each headed [memory:<id>@<revision>; <scope>; <kind>]. Empty when nothing is relevant; while the user has "Use memory" off for this teammate, only a note saying memory is off.`
)

// The tools' input schemas (JSON Schema 2020-12). They state the limits the domain enforces, so a
// model sees them up front, and refuse unknown arguments: a tool takes no scope or teammate (S2).
var (
	schemaRemember = json.RawMessage(`{
  "type": "object",
  "properties": {
    "content": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(memory.MaxContentLength) + `,
      "description": "The memory itself, in the user's own words: quote them exactly, since a paraphrase can't be confirmed and becomes a suggestion."},
    "key": {"type": ["string", "null"], "maxLength": ` + strconv.Itoa(memory.MaxKeyLength) + `,
      "description": "Optional short label on one line, such as \"bike colour\". A key must appear in the user's request too, or the save becomes a suggestion."},
    "kind": {"type": ["string", "null"], "enum": ["fact", "preference", "lesson", "note", null], "default": "fact",
      "description": "fact (about the user, the default), preference, lesson (from the user's feedback) or note."},
    "for_everyone": {"type": ["boolean", "null"], "default": false,
      "description": "Save to the memory every teammate shares. Confirmed only when the user's request also says it is for every teammate."},
    "idempotency_key": {"type": ["string", "null"], "maxLength": ` + strconv.Itoa(memory.MaxIdempotencyKeyLength) + `,
      "description": ` + descIdempotencyKey + `}
  },
  "required": ["content"],
  "additionalProperties": false
}`)

	schemaRememberAboutUser = json.RawMessage(`{
  "type": "object",
  "properties": {
    "content": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(memory.MaxContentLength) + `,
      "description": "The fact about the user, in the user's own words."},
    "key": {"type": ["string", "null"], "maxLength": ` + strconv.Itoa(memory.MaxKeyLength) + `,
      "description": "Optional short label on one line, such as \"home town\"."},
    "idempotency_key": {"type": ["string", "null"], "maxLength": ` + strconv.Itoa(memory.MaxIdempotencyKeyLength) + `,
      "description": ` + descIdempotencyKey + `}
  },
  "required": ["content"],
  "additionalProperties": false
}`)

	schemaUpdate = json.RawMessage(`{
  "type": "object",
  "properties": {
    "id": {"type": "string", "description": "The memory's id, from its header [memory:<id>@<revision>; …]."},
    "base_revision": {"type": "integer", "minimum": 1, "description": "The revision you read, from the same header."},
    "content": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(memory.MaxContentLength) + `,
      "description": "The corrected memory, in the user's own words."},
    "idempotency_key": {"type": ["string", "null"], "maxLength": ` + strconv.Itoa(memory.MaxIdempotencyKeyLength) + `,
      "description": ` + descIdempotencyKey + `}
  },
  "required": ["id", "base_revision", "content"],
  "additionalProperties": false
}`)

	schemaForget = json.RawMessage(`{
  "type": "object",
  "properties": {
    "id": {"type": "string", "description": "The memory's id, from its header [memory:<id>@<revision>; …]."},
    "idempotency_key": {"type": ["string", "null"], "maxLength": ` + strconv.Itoa(memory.MaxIdempotencyKeyLength) + `,
      "description": ` + descIdempotencyKey + `}
  },
  "required": ["id"],
  "additionalProperties": false
}`)

	schemaSearch = json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(memory.MaxSearchLength) + `,
      "description": "Words or a phrase to look for."}
  },
  "required": ["query"],
  "additionalProperties": false
}`)
)
