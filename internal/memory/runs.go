package memory

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// MaxMessageLength bounds a user message or a reply, in characters.
const MaxMessageLength = 32000

// RunStatus is where a run is in its life.
type RunStatus string

// The statuses of a run. Every status but RunRunning ends the run credential.
const (
	RunRunning     RunStatus = "running"
	RunCompleted   RunStatus = "completed"
	RunFailed      RunStatus = "failed"
	RunInterrupted RunStatus = "interrupted"
	RunCancelled   RunStatus = "cancelled"
)

// Run is one turn of a teammate in a thread.
type Run struct {
	ID            string
	TeammateID    string
	ThreadID      string
	Status        RunStatus
	StartedByUser bool
	// Generation is the generation the run adopted (G2); checked before every tool call (G5).
	Generation  string
	Rating      *Rating
	CreatedAt   time.Time
	EndedAt     *time.Time
	CancelledAt *time.Time
}

// Thread is a conversation of one teammate, made with one generation (G3).
type Thread struct {
	ID         string
	TeammateID string
	Generation string
	CreatedAt  time.Time
}

// StartRunInput is what the worker knows when a turn starts.
type StartRunInput struct {
	TeammateID string
	// ThreadID continues a thread when its generation is still current; empty starts a new one.
	ThreadID      string
	Message       string
	StartedByUser bool
	// RetryMessageID starts the run of a redo the user asked for (RetryRunWithNote): the stored
	// message is the run's user message, and Message must be empty.
	RetryMessageID string
}

// StartedRun is what StartRun hands the worker.
type StartedRun struct {
	Run Run
	// Token is the run credential, shown once: only its hash is stored.
	Token  string
	Thread Thread
	// Fresh is true when a new thread was made (no thread given, or its generation is stale).
	Fresh      bool
	Packet     Packet
	Generation Generation
	// RetryOf is set when the run is a retry (RetryMessageID): what the teammate needs to redo the
	// reply, as the run's own user message holds only the user's note.
	RetryOf *RetryOrigin
}

// RetryOrigin is the context of a retry's run (L3): the request the user first made and, when the
// retry runs in a fresh thread (memory changed since, G3), the reply being redone — a continued
// thread has both already.
type RetryOrigin struct {
	// RunID is the run whose reply is redone.
	RunID string
	// UserMessage is the request that started the conversation being redone: the redone run's user
	// message, or, when that run was itself a retry, the request of the first run of the chain.
	UserMessage string
	// Reply is the redone run's reply; empty when the thread continues (it is in the thread).
	Reply string
	// Note is what the user asked to be done differently.
	Note string
}

// runRow is a run's row as every statement of queries/runs.sql that returns runs reads it (see
// itemRow).
type runRow = struct {
	ID            string
	TeammateID    string
	ThreadID      string
	Status        string
	StartedByUser bool
	Generation    string
	Rating        *string
	CreatedAt     time.Time
	EndedAt       *time.Time
	CancelledAt   *time.Time
}

// runFromRow is the one place where a run's row becomes a Run.
func runFromRow[R ~runRow](row *R) Run {
	r := runRow(*row)
	return Run{
		ID: r.ID, TeammateID: r.TeammateID, ThreadID: r.ThreadID, Status: RunStatus(r.Status),
		StartedByUser: r.StartedByUser, Generation: r.Generation, Rating: (*Rating)(r.Rating), CreatedAt: r.CreatedAt,
		EndedAt: r.EndedAt, CancelledAt: r.CancelledAt,
	}
}

func threadFromRow(r *memorydb.BotThread) Thread {
	return Thread{ID: r.ID, TeammateID: r.TeammateID, Generation: r.Generation, CreatedAt: r.CreatedAt}
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func newRunToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand doesn't fail on supported platforms
	}
	return "mr_" + base64.RawURLEncoding.EncodeToString(b)
}

// StartRun starts a teammate's turn (worker only): it stores the user message and the run, reuses the
// thread only if its generation is current (G3: never a fork), builds the memory packet and records
// what it gave (P7), and re-reads the generation: if memory changed meanwhile, the run is marked
// failed and ErrMemoryChanged returned (G4).
func (w *Worker) StartRun(ctx context.Context, in StartRunInput) (StartedRun, error) {
	s := w.service()
	if _, err := require(ctx, CredentialWorker); err != nil {
		return StartedRun{}, err
	}
	teammateID, err := parseID("teammateId", in.TeammateID)
	if err != nil {
		return StartedRun{}, err
	}
	if in.ThreadID != "" {
		if in.ThreadID, err = parseID("threadId", in.ThreadID); err != nil {
			return StartedRun{}, err
		}
	}
	if in.RetryMessageID != "" {
		if in.RetryMessageID, err = parseID("retryMessageId", in.RetryMessageID); err != nil {
			return StartedRun{}, err
		}
		if in.Message != "" {
			return StartedRun{}, invalid("message", "must be empty when starting a retry: the retry's message is used")
		}
	} else if err := checkText("message", in.Message, MaxMessageLength, true); err != nil {
		return StartedRun{}, err
	}
	// The request is embedded before the transaction opens, never while it holds a connection
	// (prepareRecall). A retry's stored message and its origin are read for it here and again under
	// lock below; a retry is recalled for what the user asked in the first place and the note (the
	// note alone — "make it shorter" — says little about which memory matters).
	request := in.Message
	if in.RetryMessageID != "" {
		// Read without claiming it: the transaction claims it (MessageRetryGetForUpdate).
		retry, err := queries(s.pool).MessageRetryGet(ctx, in.RetryMessageID)
		switch {
		case err == nil && retry.RedoOfRunID != nil:
			origin, err := retryOriginQ(ctx, queries(s.pool), *retry.RedoOfRunID, retry.Content)
			if err != nil {
				return StartedRun{}, fmt.Errorf("start run: %w", err)
			}
			request = origin.request()
		case err != nil && !errors.Is(err, ErrNotFound):
			return StartedRun{}, fmt.Errorf("start run: %w", err)
		}
	}
	recallStart := time.Now()
	recall, err := s.prepareRecall(ctx, teammateID, request)
	if err != nil {
		return StartedRun{}, wrapUnlessDomain("start run", err)
	}
	// The recall's time is its preparation's and its packet's (of the attempt that committed).
	prepared, built := time.Since(recallStart), time.Duration(0)
	var out StartedRun
	changed := false
	given := in
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		out, changed, in = StartedRun{}, false, given
		// The teammate's row first (tx.go, lock order): a deletion under way finishes before the
		// run is inserted (then there is no row: ErrNotFound), and one that comes later waits for
		// this start, then takes its run with the others.
		q := queries(tx)
		if _, err := q.TeammateStartLock(ctx, teammateID); err != nil {
			return err
		}
		request := in.Message
		var retryThread string
		if in.RetryMessageID != "" {
			retry, err := q.MessageRetryGetForUpdate(ctx, in.RetryMessageID)
			if err != nil {
				return err // ErrNotFound: unknown, or already picked up by another start
			}
			if retry.TeammateID != teammateID {
				return ErrNotFound
			}
			in.Message, retryThread = retry.Content, retry.ThreadID
			if in.ThreadID == "" {
				in.ThreadID = retryThread
			}
			origin, err := retryOriginQ(ctx, q, retry.RedoOfRunID, in.Message)
			if err != nil {
				return err
			}
			out.RetryOf = &origin
			request = origin.request()
		}
		g1, err := generationQ(ctx, q, teammateID)
		if err != nil {
			return err
		}
		out.Generation = g1
		if in.ThreadID != "" {
			row, err := q.ThreadGet(ctx, in.ThreadID)
			if err != nil {
				return err
			}
			t := threadFromRow(row)
			if t.TeammateID != teammateID {
				return ErrNotFound
			}
			if t.Generation == g1.String() {
				out.Thread = t
			}
		}
		if out.Thread.ID == "" {
			out.Fresh = true
			row, err := q.ThreadInsert(ctx, memorydb.ThreadInsertParams{TeammateID: teammateID, Generation: g1.String()})
			if err != nil {
				return err
			}
			out.Thread = threadFromRow(row)
		}
		out.Token = newRunToken()
		run, err := q.RunInsert(ctx, memorydb.RunInsertParams{
			TeammateID: teammateID, ThreadID: out.Thread.ID, StartedByUser: in.StartedByUser, Generation: g1.String(),
			TokenHash: hashToken(out.Token),
		})
		if err != nil {
			return err
		}
		out.Run = runFromRow(run)
		if in.RetryMessageID != "" {
			if err := q.MessageAttach(ctx, memorydb.MessageAttachParams{ID: in.RetryMessageID, RunID: &out.Run.ID, ThreadID: out.Thread.ID}); err != nil {
				return err
			}
		} else if _, err := q.MessageInsert(ctx, memorydb.MessageInsertParams{
			ThreadID: out.Thread.ID, RunID: &out.Run.ID, Role: "user", Content: in.Message,
		}); err != nil {
			return err
		}
		if out.RetryOf != nil && !out.Fresh {
			out.RetryOf.Reply = "" // the continued thread holds it
		}
		buildStart := time.Now()
		if out.Packet, err = s.buildPacketTx(ctx, tx, teammateID, recall.forRequest(request)); err != nil {
			return err
		}
		built = time.Since(buildStart)
		if err := writeContextsTx(ctx, tx, out.Run.ID, out.Packet); err != nil {
			return err
		}
		if s.hooks.beforeGenerationRecheck != nil {
			s.hooks.beforeGenerationRecheck()
		}
		g2, err := generationQ(ctx, q, teammateID)
		if err != nil {
			return err
		}
		if g2 != g1 {
			// The packet may predate the change: it is never handed out, and the run ends here.
			changed = true
			if err := q.ContextsDeleteOfRun(ctx, out.Run.ID); err != nil {
				return err
			}
			if in.RetryMessageID != "" {
				// The retry isn't lost with the failed start: it waits for the worker again.
				if err := q.MessageDetach(ctx, memorydb.MessageDetachParams{ID: in.RetryMessageID, ThreadID: retryThread}); err != nil {
					return err
				}
			}
			_, err := q.RunEnd(ctx, memorydb.RunEndParams{ID: out.Run.ID, Status: string(RunFailed)})
			return err
		}
		return nil
	})
	if err != nil {
		return StartedRun{}, wrapUnlessDomain("start run", err)
	}
	if changed {
		s.log.InfoContext(ctx, "run failed: memory changed while it started", "run", out.Run.ID, "teammate", teammateID)
		return StartedRun{}, ErrMemoryChanged
	}
	s.countRecall("start_run", prepared+built, out.Packet)
	s.log.InfoContext(ctx, "run started", "run", out.Run.ID, "teammate", teammateID, "thread", out.Thread.ID,
		"fresh", out.Fresh, "entries", len(out.Packet.Entries))
	return out, nil
}

// maxRetryChain bounds how far retryOriginTx follows retries of retries back to the first request.
const maxRetryChain = 20

// request is what a retry's packet is recalled for: the first request and the note.
func (o RetryOrigin) request() string { return o.UserMessage + "\n\n" + o.Note }

// retryOriginQ reads what a retry of run redoOf needs (L3): the first request of the chain of
// retries that ends at redoOf, redoOf's reply, and the user's note in prompt. q runs in the start's
// transaction, or on the pool before it opens.
func retryOriginQ(ctx context.Context, q *memorydb.Queries, redoOf, prompt string) (RetryOrigin, error) {
	o := RetryOrigin{RunID: redoOf, Note: RetryNote(prompt)}
	reply, err := q.MessageReplyOfRun(ctx, redoOf)
	switch {
	case err == nil:
		o.Reply = reply
	case !errors.Is(err, ErrNotFound):
		return RetryOrigin{}, err
	}
	run := redoOf
	for range maxRetryChain {
		req, err := q.MessageRequestOfRun(ctx, run)
		if errors.Is(err, ErrNotFound) {
			break // a run with no user message: nothing to carry
		} else if err != nil {
			return RetryOrigin{}, err
		}
		o.UserMessage = req.Content
		if req.RedoOfRunID == nil {
			break
		}
		run = *req.RedoOfRunID
	}
	return o, nil
}

// AuthenticateRun maps a run token to its credential while the run is running and its token has
// not gone unused for longer than the run idle timeout (runexpiry.go).
func (s *Service) AuthenticateRun(ctx context.Context, token string) (Credential, error) {
	return s.authenticateRun(ctx, hashToken(token))
}

// CheckRunCredential returns ErrUnauthenticated when ctx carries a run credential whose run has ended
// since the credential was authenticated: a websocket keeps the credential of its connection_init,
// and a run's credential ends with the run (RULES §4). Other credentials pass, and so does a run
// credential authenticated with the request itself (an HTTP request: checked a moment ago).
func (s *Service) CheckRunCredential(ctx context.Context) error {
	c := CredentialFrom(ctx)
	if c.Kind != CredentialRun || !c.Connection {
		return nil
	}
	running, err := queries(s.pool).RunIsRunning(ctx, c.RunID)
	switch {
	case errors.Is(err, ErrNotFound) || (err == nil && !running):
		return ErrUnauthenticated
	case err != nil:
		return fmt.Errorf("check run credential: %w", err)
	}
	return nil
}

// GenerationCheck is the answer to CheckRunGeneration.
type GenerationCheck struct {
	// Current is the teammate's generation now; Adopted the run's.
	Current, Adopted string
	// Interrupted is true when they differ: the run has been ended and must stop (G5).
	Interrupted bool
}

// CheckRunGeneration lets a worker check between model steps (run credential): if memory the
// teammate sees changed since the run adopted its generation, the run is marked interrupted (G5).
// Every tool call and completeRun make the same check themselves (runWriteTx, runTx).
func (t *Tools) CheckRunGeneration(ctx context.Context) (GenerationCheck, error) {
	s := t.service()
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return GenerationCheck{}, err
	}
	var out GenerationCheck
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		out = GenerationCheck{}
		run, err := runOpen(ctx, tx, c)
		if err != nil {
			return err
		}
		g, ok, err := checkGenerationTx(ctx, tx, run)
		out = GenerationCheck{Current: g.String(), Adopted: run.Generation, Interrupted: !ok}
		return err
	})
	if err != nil {
		return GenerationCheck{}, wrapUnlessDomain("check run generation", err)
	}
	if out.Interrupted {
		s.log.InfoContext(ctx, "run interrupted: memory changed mid-turn", "run", c.RunID)
	}
	return out, nil
}

// CompleteRun stores the reply and ends the run (run credential). Like every run-credential
// operation it checks the run's generation first (G5): a reply written from memory the user has
// changed since is not stored; the run is interrupted and the answer is ErrMemoryChangedMidTurn.
func (t *Tools) CompleteRun(ctx context.Context, reply string) (Run, error) {
	s := t.service()
	if _, err := require(ctx, CredentialRun); err != nil {
		return Run{}, err
	}
	if err := checkText("reply", reply, MaxMessageLength, true); err != nil {
		return Run{}, err
	}
	var out Run
	err := s.runTx(ctx, "complete run", func(tx pgx.Tx, run Run) error {
		q := queries(tx)
		if _, err := q.MessageInsert(ctx, memorydb.MessageInsertParams{
			ThreadID: run.ThreadID, RunID: &run.ID, Role: "assistant", Content: reply,
		}); err != nil {
			return err
		}
		ended, err := q.RunEnd(ctx, memorydb.RunEndParams{ID: run.ID, Status: string(RunCompleted)})
		if err != nil {
			return err
		}
		out = runFromRow(ended)
		return s.enqueueExtractTx(ctx, tx, out) // I2: a no-op unless extraction is on and the user started the run
	})
	if err != nil {
		return Run{}, err
	}
	s.log.InfoContext(ctx, "run completed", "run", out.ID)
	return out, nil
}

// CancelRun ends a running run for the user; its credential stops working at once.
func (s *Service) CancelRun(ctx context.Context, runID string) (Run, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Run{}, err
	}
	runID, err := parseID("runId", runID)
	if err != nil {
		return Run{}, err
	}
	var out Run
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		q := queries(tx)
		row, err := q.RunGetForUpdate(ctx, runID)
		if err != nil {
			return err
		}
		if RunStatus(row.Status) != RunRunning {
			return invalid("runId", "the run has already ended")
		}
		ended, err := q.RunEnd(ctx, memorydb.RunEndParams{ID: runID, Status: string(RunCancelled)})
		if err != nil {
			return err
		}
		out = runFromRow(ended)
		return nil
	})
	if err != nil {
		return Run{}, wrapUnlessDomain("cancel run", err)
	}
	s.log.InfoContext(ctx, "run cancelled", "run", out.ID)
	return out, nil
}

// GetRun returns a run: the user and the worker see every run, a run credential its own.
func (s *Service) GetRun(ctx context.Context, runID string) (Run, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return Run{}, err
	}
	if runID, err = parseID("id", runID); err != nil {
		return Run{}, err
	}
	if !c.canReadRun(runID) {
		return Run{}, ErrForbidden
	}
	row, err := queries(s.pool).RunGet(ctx, runID)
	if err != nil {
		return Run{}, err
	}
	return runFromRow(row), nil
}

// RunMessages returns the run's user message and reply ("" while there is none). The caller must
// be able to read the run (see GetRun).
func (s *Service) RunMessages(ctx context.Context, run Run) (message, reply string, err error) {
	if err := mayReadRun(ctx, run); err != nil {
		return "", "", err
	}
	q := queries(s.pool)
	user, err := q.MessageUserOfRun(ctx, run.ID)
	switch {
	case err == nil:
		message = user.Content
	case !errors.Is(err, ErrNotFound):
		return "", "", err
	}
	reply, err = q.MessageReplyOfRun(ctx, run.ID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return "", "", err
	}
	return message, reply, nil
}

// RunRetry returns, for a retry's run (L3), the id of the run it redoes and the user's note; both
// "" for any other run. The caller must be able to read the run (see GetRun).
func (s *Service) RunRetry(ctx context.Context, run Run) (redoOf, note string, err error) {
	if err := mayReadRun(ctx, run); err != nil {
		return "", "", err
	}
	req, err := queries(s.pool).MessageRequestOfRun(ctx, run.ID)
	if errors.Is(err, ErrNotFound) || (err == nil && req.RedoOfRunID == nil) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("run retry: %w", err)
	}
	return *req.RedoOfRunID, RetryNote(req.Content), nil
}

// ThreadOf returns the thread of a run. The caller must be able to read the run (see GetRun).
func (s *Service) ThreadOf(ctx context.Context, run Run) (Thread, error) {
	if err := mayReadRun(ctx, run); err != nil {
		return Thread{}, err
	}
	row, err := queries(s.pool).ThreadGet(ctx, run.ThreadID)
	if err != nil {
		return Thread{}, err
	}
	return threadFromRow(row), nil
}

// mayReadRun checks that the caller may read run: the user and the worker read every run, a run
// credential its own.
func mayReadRun(ctx context.Context, run Run) error {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err == nil && !c.canReadRun(run.ID) {
		err = ErrForbidden
	}
	return err
}

// Runs lists a teammate's runs, newest first (user or worker): the conversations screen. before is
// the last run of the previous page (nil for the first page).
func (s *Service) Runs(ctx context.Context, teammateID string, first *int, before *Run) ([]Run, error) {
	if _, err := require(ctx, CredentialUser, CredentialWorker); err != nil {
		return nil, err
	}
	teammateID, err := parseID("teammateId", teammateID)
	if err != nil {
		return nil, err
	}
	if err := s.checkTeammateExists(ctx, teammateID); err != nil {
		return nil, err
	}
	limit, err := pageSize(first)
	if err != nil {
		return nil, err
	}
	page := memorydb.RunsOfTeammateParams{TeammateID: teammateID, MaxRows: limit}
	if before != nil {
		page.BeforeCreated, page.BeforeID = &before.CreatedAt, &before.ID
	}
	rows, err := queries(s.pool).RunsOfTeammate(ctx, page)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return mapRows(rows, runFromRow), nil
}
