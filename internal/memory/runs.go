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

const runColumns = `id::text, teammate_id::text, thread_id::text, status, started_by_user, generation, rating,
	created_at, ended_at, cancelled_at`

const (
	qThreadGet    = `SELECT id::text, teammate_id::text, generation, created_at FROM bot_threads WHERE id = $1`
	qThreadInsert = `INSERT INTO bot_threads (teammate_id, generation) VALUES ($1, $2)
		RETURNING id::text, teammate_id::text, generation, created_at`
	qRunInsert = `INSERT INTO runs (teammate_id, thread_id, started_by_user, generation, token_hash)
		VALUES ($1, $2, $3, $4, $5) RETURNING ` + runColumns
	qMessageInsert = `INSERT INTO messages (thread_id, run_id, role, content, redo_of_run_id)
		VALUES ($1, $2, $3, $4, $5) RETURNING id::text`
	qRunGet       = `SELECT ` + runColumns + ` FROM runs WHERE id = $1`
	qRunForUpdate = `SELECT ` + runColumns + ` FROM runs WHERE id = $1 FOR UPDATE`
	qRunRunning   = `SELECT status = 'running' FROM runs WHERE id = $1`
	qRunEnd       = `UPDATE runs SET status = $2, ended_at = now(), token_hash = NULL,
		cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() END
		WHERE id = $1 AND status = 'running' RETURNING ` + runColumns
	qRunAdopt       = `UPDATE runs SET generation = $2 WHERE id = $1`
	qRunUserMessage = `SELECT id::text, content FROM messages WHERE run_id = $1 AND role = 'user' ORDER BY created_at LIMIT 1`
	qRunReply       = `SELECT content FROM messages WHERE run_id = $1 AND role = 'assistant' ORDER BY created_at DESC LIMIT 1`
	// qRunRequest is a run's user message and, when the run is a retry, the run it redoes.
	qRunRequest = `SELECT content, redo_of_run_id::text FROM messages WHERE run_id = $1 AND role = 'user' ORDER BY created_at LIMIT 1`
	// qMessageDetach puts a retry's message back to waiting, in its thread, when its run failed to start.
	qMessageDetach   = `UPDATE messages SET run_id = NULL, thread_id = $2 WHERE id = $1`
	qRunContextsDrop = `DELETE FROM memory_contexts WHERE run_id = $1`
	// qRetryMessageText reads a retry's stored message and the run it redoes without claiming it,
	// to embed its request before StartRun's transaction (qRetryMessageForUpdate claims it inside).
	qRetryMessageText = `SELECT content, redo_of_run_id::text FROM messages WHERE id = $1`
)

func scanRun(row pgx.Row) (Run, error) {
	var r Run
	err := row.Scan(&r.ID, &r.TeammateID, &r.ThreadID, &r.Status, &r.StartedByUser, &r.Generation, &r.Rating,
		&r.CreatedAt, &r.EndedAt, &r.CancelledAt)
	return r, err
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
func (s *Service) StartRun(ctx context.Context, in StartRunInput) (StartedRun, error) {
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
	// (PrepareRecall). A retry's stored message and its origin are read for it here and again under
	// lock below; a retry is recalled for what the user asked in the first place and the note (the
	// note alone — "make it shorter" — says little about which memory matters).
	request := in.Message
	if in.RetryMessageID != "" {
		var prompt string
		var redoOf *string
		err := s.pool.QueryRow(ctx, qRetryMessageText, in.RetryMessageID).Scan(&prompt, &redoOf)
		switch {
		case err == nil && redoOf != nil:
			origin, err := retryOriginTx(ctx, s.pool, *redoOf, prompt)
			if err != nil {
				return StartedRun{}, fmt.Errorf("start run: %w", err)
			}
			request = origin.request()
		case err != nil && !errors.Is(err, pgx.ErrNoRows):
			return StartedRun{}, fmt.Errorf("start run: %w", err)
		}
	}
	recall, err := s.PrepareRecall(ctx, teammateID, request)
	if err != nil {
		return StartedRun{}, wrapUnlessDomain("start run", err)
	}
	var out StartedRun
	changed := false
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		exists, err := queries(tx).TeammateExists(ctx, teammateID)
		if err != nil {
			return err
		}
		if !exists {
			return ErrNotFound
		}
		request := in.Message
		var retryThread string
		if in.RetryMessageID != "" {
			var owner, redoOf string
			if err := tx.QueryRow(ctx, qRetryMessageForUpdate, in.RetryMessageID).Scan(&in.Message, &owner, &retryThread, &redoOf); err != nil {
				return notFoundIfNoRows(err) // unknown, or already picked up by another start
			}
			if owner != teammateID {
				return ErrNotFound
			}
			if in.ThreadID == "" {
				in.ThreadID = retryThread
			}
			origin, err := retryOriginTx(ctx, tx, redoOf, in.Message)
			if err != nil {
				return err
			}
			out.RetryOf = &origin
			request = origin.request()
		}
		g1, err := generationQ(ctx, tx, teammateID)
		if err != nil {
			return err
		}
		out.Generation = g1
		if in.ThreadID != "" {
			var t Thread
			err := tx.QueryRow(ctx, qThreadGet, in.ThreadID).Scan(&t.ID, &t.TeammateID, &t.Generation, &t.CreatedAt)
			if err != nil {
				return notFoundIfNoRows(err)
			}
			if t.TeammateID != teammateID {
				return ErrNotFound
			}
			if t.Generation == g1.String() {
				out.Thread = t
			}
		}
		if out.Thread.ID == "" {
			out.Fresh = true
			err := tx.QueryRow(ctx, qThreadInsert, teammateID, g1.String()).
				Scan(&out.Thread.ID, &out.Thread.TeammateID, &out.Thread.Generation, &out.Thread.CreatedAt)
			if err != nil {
				return err
			}
		}
		out.Token = newRunToken()
		if out.Run, err = scanRun(tx.QueryRow(ctx, qRunInsert, teammateID, out.Thread.ID, in.StartedByUser,
			g1.String(), hashToken(out.Token))); err != nil {
			return err
		}
		if in.RetryMessageID != "" {
			if _, err := tx.Exec(ctx, qMessageAttach, in.RetryMessageID, out.Run.ID, out.Thread.ID); err != nil {
				return err
			}
		} else if _, err := tx.Exec(ctx, qMessageInsert, out.Thread.ID, out.Run.ID, "user", in.Message, nil); err != nil {
			return err
		}
		if out.RetryOf != nil && !out.Fresh {
			out.RetryOf.Reply = "" // the continued thread holds it
		}
		if out.Packet, err = s.BuildPacketTx(ctx, tx, teammateID, recall.forRequest(request)); err != nil {
			return err
		}
		if err := WriteContextsTx(ctx, tx, out.Run.ID, out.Packet); err != nil {
			return err
		}
		if s.hooks.beforeGenerationRecheck != nil {
			s.hooks.beforeGenerationRecheck()
		}
		g2, err := generationQ(ctx, tx, teammateID)
		if err != nil {
			return err
		}
		if g2 != g1 {
			// The packet may predate the change: it is never handed out, and the run ends here.
			changed = true
			if _, err := tx.Exec(ctx, qRunContextsDrop, out.Run.ID); err != nil {
				return err
			}
			if in.RetryMessageID != "" {
				// The retry isn't lost with the failed start: it waits for the worker again.
				if _, err := tx.Exec(ctx, qMessageDetach, in.RetryMessageID, retryThread); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, qRunEnd, out.Run.ID, RunFailed)
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
	s.log.InfoContext(ctx, "run started", "run", out.Run.ID, "teammate", teammateID, "thread", out.Thread.ID,
		"fresh", out.Fresh, "entries", len(out.Packet.Entries))
	return out, nil
}

// maxRetryChain bounds how far retryOriginTx follows retries of retries back to the first request.
const maxRetryChain = 20

// request is what a retry's packet is recalled for: the first request and the note.
func (o RetryOrigin) request() string { return o.UserMessage + "\n\n" + o.Note }

// retryOriginTx reads what a retry of run redoOf needs (L3): the first request of the chain of
// retries that ends at redoOf, redoOf's reply, and the user's note in prompt. tx is the start's
// transaction, or the pool before it opens.
func retryOriginTx(ctx context.Context, tx querier, redoOf, prompt string) (RetryOrigin, error) {
	o := RetryOrigin{RunID: redoOf, Note: RetryNote(prompt)}
	if err := tx.QueryRow(ctx, qRunReply, redoOf).Scan(&o.Reply); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return RetryOrigin{}, err
	}
	run := redoOf
	for range maxRetryChain {
		var earlier *string
		if err := tx.QueryRow(ctx, qRunRequest, run).Scan(&o.UserMessage, &earlier); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				break // a run with no user message: nothing to carry
			}
			return RetryOrigin{}, err
		}
		if earlier == nil {
			break
		}
		run = *earlier
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
	var running bool
	err := s.pool.QueryRow(ctx, qRunRunning, c.RunID).Scan(&running)
	switch {
	case errors.Is(err, pgx.ErrNoRows) || (err == nil && !running):
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
// Every tool call and completeRun make the same check themselves (runWriteTx, runReadTx).
func (s *Service) CheckRunGeneration(ctx context.Context) (GenerationCheck, error) {
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return GenerationCheck{}, err
	}
	var out GenerationCheck
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
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
func (s *Service) CompleteRun(ctx context.Context, reply string) (Run, error) {
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return Run{}, err
	}
	if err := checkText("reply", reply, MaxMessageLength, true); err != nil {
		return Run{}, err
	}
	var out Run
	changed := false
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		run, err := runOpen(ctx, tx, c)
		if err != nil {
			return err
		}
		_, ok, err := checkGenerationTx(ctx, tx, run)
		if err != nil || !ok {
			changed = !ok
			return err
		}
		var id string
		if err := tx.QueryRow(ctx, qMessageInsert, run.ThreadID, run.ID, "assistant", reply, nil).Scan(&id); err != nil {
			return err
		}
		if out, err = scanRun(tx.QueryRow(ctx, qRunEnd, run.ID, RunCompleted)); err != nil {
			return err
		}
		return s.EnqueueExtractTx(ctx, tx, out) // I2: a no-op unless extraction is on and the user started the run
	})
	if err != nil {
		return Run{}, wrapUnlessDomain("complete run", err)
	}
	if changed {
		s.log.InfoContext(ctx, "run interrupted: memory changed mid-turn", "run", c.RunID)
		return Run{}, ErrMemoryChangedMidTurn
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
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		run, err := scanRun(tx.QueryRow(ctx, qRunForUpdate, runID))
		if err != nil {
			return notFoundIfNoRows(err)
		}
		if run.Status != RunRunning {
			return invalid("runId", "the run has already ended")
		}
		out, err = scanRun(tx.QueryRow(ctx, qRunEnd, run.ID, RunCancelled))
		return err
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
	if c.Kind == CredentialRun && c.RunID != runID {
		return Run{}, ErrForbidden
	}
	run, err := scanRun(s.pool.QueryRow(ctx, qRunGet, runID))
	return run, notFoundIfNoRows(err)
}

// RunMessages returns the run's user message and reply ("" while there is none), for a caller that
// has read the run with GetRun.
func (s *Service) RunMessages(ctx context.Context, runID string) (message, reply string, err error) {
	var id string
	if err := s.pool.QueryRow(ctx, qRunUserMessage, runID).Scan(&id, &message); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", "", err
	}
	if err := s.pool.QueryRow(ctx, qRunReply, runID).Scan(&reply); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", "", err
	}
	return message, reply, nil
}

// RunRetry returns, for a retry's run (L3), the id of the run it redoes and the user's note; both
// "" for any other run. For a caller that has read the run with GetRun.
func (s *Service) RunRetry(ctx context.Context, runID string) (redoOf, note string, err error) {
	var message string
	var earlier *string
	err = s.pool.QueryRow(ctx, qRunRequest, runID).Scan(&message, &earlier)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && earlier == nil) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("run retry: %w", err)
	}
	return *earlier, RetryNote(message), nil
}

// ThreadOf returns the thread of a run the caller has read with GetRun or StartRun.
func (s *Service) ThreadOf(ctx context.Context, run Run) (Thread, error) {
	var t Thread
	err := s.pool.QueryRow(ctx, qThreadGet, run.ThreadID).Scan(&t.ID, &t.TeammateID, &t.Generation, &t.CreatedAt)
	return t, notFoundIfNoRows(err)
}

const qRunsOfTeammate = `SELECT ` + runColumns + ` FROM runs
	WHERE teammate_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))
	ORDER BY created_at DESC, id DESC LIMIT $4`

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
	var at *time.Time
	var id *string
	if before != nil {
		at, id = &before.CreatedAt, &before.ID
	}
	rows, err := s.pool.Query(ctx, qRunsOfTeammate, teammateID, at, id, limit)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Run, error) { return scanRun(r) })
}
