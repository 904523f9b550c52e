package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory/memorydb"
	"github.com/open-bot/memory/internal/memory/textmodel"
)

// Extraction (RULES I2, F3, F4): after a run the user started completes, an extract job sends the run's
// user message to the extraction model, which proposes up to MaxExtractedCandidates candidates, each
// with an evidence quote. A proposal whose evidence is not in the message, whose text was forgotten
// before in the scope (a tombstone), that repeats an item the scope has, or whose message has been
// suppressed (a forget of an item extracted from it) is dropped; the rest become candidates in the
// teammate's own scope, announced like any other (A6), and wait for the user.

// MaxExtractedCandidates is the most candidates one run's message yields (I2).
const MaxExtractedCandidates = 5

// ActorExtraction is the actor of revisions written by extraction.
const ActorExtraction = "extraction"

// ExtractedCandidate is one proposal of the extraction model.
type ExtractedCandidate struct {
	// Kind is fact or preference.
	Kind Kind `json:"kind"`
	// Key is a short label, or "".
	Key string `json:"key"`
	// Content is the statement to remember, like "Prefers tea over coffee".
	Content string `json:"content"`
	// Evidence quotes the user's message; a proposal whose quote is not in the message is dropped.
	Evidence string `json:"evidence"`
}

// Extraction is the extraction model's whole answer.
type Extraction struct {
	Candidates []ExtractedCandidate `json:"candidates"`
}

// ExtractionSchemaName and ExtractionSchema describe Extraction for a strict json_schema response
// format. (The five-candidate cap is enforced here, not in the schema: not every endpoint supports
// maxItems in strict mode.)
const ExtractionSchemaName = "memory_candidates"

// ExtractionSchema is the JSON Schema of Extraction.
var ExtractionSchema = json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["candidates"],
  "properties": {
    "candidates": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["kind", "key", "content", "evidence"],
        "properties": {
          "kind": {"type": "string", "enum": ["fact", "preference"]},
          "key": {"type": "string", "description": "a short label of one to three words, or an empty string"},
          "content": {"type": "string", "description": "the fact or preference as a short statement about the user"},
          "evidence": {"type": "string", "description": "an exact quote from the user's message that states it"}
        }
      }
    }
  }
}`)

// ExtractionInstructions is the system message of an extraction request; the user message follows
// it unchanged.
const ExtractionInstructions = `You help an assistant remember durable facts about its user and the user's preferences.
Read the user's message below and propose at most five things worth remembering for future conversations:
facts the user states about themselves (who they are, their situation, their work, their people) and
their lasting preferences (how they like things done). Do not propose anything about the task at hand
that won't matter later, anything the user did not say themselves, guesses, or instructions to the
assistant. Write each as a short statement about the user ("Prefers metric units"), give it a short
key of one to three words or an empty string, and quote, exactly and in the user's own words, the part
of the message that states it as evidence. If nothing is worth remembering, return no candidates.`

// enqueueExtractTx enqueues, in tx, an extract job for run when extraction is on and the run is a
// completed run the user started; otherwise it does nothing. Call it where a run completes.
func (s *Service) enqueueExtractTx(ctx context.Context, tx pgx.Tx, run Run) error {
	if !s.ai.extraction || !run.StartedByUser || run.Status != RunCompleted {
		return nil
	}
	return jobs.EnqueueTx(ctx, tx, jobs.Job{Kind: JobExtract, RunID: run.ID})
}

// ExtractJob is the body of an extract job for run runID (I2). It does nothing if the run is not a
// completed run the user started, has no user message, its message is suppressed (F4), or it was
// extracted already. Otherwise it calls extract with the message outside any transaction, keeps at
// most MaxExtractedCandidates proposals whose evidence appears in the message, then — under the
// scope's lock, with the suppression checked again — saves as candidates those that are valid, not
// tombstoned (F3) and not already known in the scope. It returns how many candidates it saved.
// Errors from extract are returned wrapped (so a queue sees their codes); none carries memory text.
func (s *Background) ExtractJob(ctx context.Context, runID string, extract func(ctx context.Context, message string) (Extraction, error)) (int, error) {
	if !s.ai.extraction {
		return 0, nil
	}
	runID, err := parseID("runId", runID)
	if err != nil {
		return 0, err
	}
	src, err := queries(s.pool).RunExtractSource(ctx, runID)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("extract job: read run: %w", err)
	}
	if !src.Eligible || src.MessageID == nil || src.Suppressed || src.Extracted {
		return 0, nil
	}
	teammateID, messageID, message := src.TeammateID, src.MessageID, src.Message
	answer, err := extract(ctx, *message)
	if err != nil {
		return 0, fmt.Errorf("extract job: %w", err)
	}
	proposals := answer.Candidates[:min(len(answer.Candidates), MaxExtractedCandidates)]
	kept := make([]newItem, 0, len(proposals))
	seen := map[string]bool{}
	for _, p := range proposals {
		n, ok := extractedItem(p, *message)
		if !ok || seen[string(ContentHash(n.state.content))] {
			continue
		}
		seen[string(ContentHash(n.state.content))] = true
		n.scope = Scope{TeammateID: &teammateID}
		n.sourceRunID, n.sourceMessageID = &runID, messageID
		kept = append(kept, n)
	}
	if len(kept) == 0 {
		return 0, nil
	}
	saved := 0
	err = s.service().inWriteTx(ctx, func(tx pgx.Tx) error {
		saved = 0
		if err := lockScopeTx(ctx, tx, teammateID); err != nil {
			return err
		}
		// A forget that committed while the model was thinking may have suppressed the message.
		q := queries(tx)
		if suppressed, err := q.SuppressionExists(ctx, *messageID); err != nil || suppressed {
			return err
		}
		for _, n := range kept {
			dead, err := s.service().tombstonedTx(ctx, tx, teammateID, n.state.content)
			if err != nil {
				return err
			}
			// A proposal that repeats an active item or a waiting candidate of the scope adds nothing.
			known, err := q.ItemKnownTextExists(ctx, memorydb.ItemKnownTextExistsParams{
				Scope: teammateID, ContentHash: ContentHash(n.state.content),
			})
			if err != nil {
				return err
			}
			if dead || known {
				continue
			}
			if _, err := s.service().insertItemTx(ctx, tx, n); err != nil {
				return err
			}
			saved++
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return 0, nil // the teammate was deleted meanwhile
	}
	if err != nil {
		return 0, fmt.Errorf("extract job: save: %w", err)
	}
	if saved > 0 {
		s.log.InfoContext(ctx, "candidates extracted", "run", runID, "candidates", saved, "proposed", len(answer.Candidates))
	}
	return saved, nil
}

// extractedItem validates one proposal against message: a known kind, valid content and key, and
// evidence that appears in the message (compared like A1: case, spacing and punctuation aside, on
// word boundaries).
func extractedItem(p ExtractedCandidate, message string) (newItem, bool) {
	if p.Kind == "" {
		p.Kind = KindFact
	}
	if p.Kind != KindFact && p.Kind != KindPreference {
		return newItem{}, false
	}
	content := strings.TrimSpace(p.Content)
	if checkContent(content) != nil {
		return newItem{}, false
	}
	key, err := normalizeKey(&p.Key)
	if err != nil {
		return newItem{}, false
	}
	evidence := strings.TrimSpace(p.Evidence)
	if checkText("evidence", evidence, MaxContentLength, true) != nil || !quotes(message, evidence) {
		return newItem{}, false
	}
	// The judge never reads an extraction candidate, so it waits for the fixed reason
	// ReasonExtracted; its evidence already quotes the message, so it keeps no wait words.
	return newItem{
		state:  state{content: content, key: key, kind: p.Kind},
		status: StatusCandidate, source: SourceExtraction, actor: ActorExtraction, evidence: &evidence,
		waitReason: ReasonExtracted,
	}, true
}

// quotes reports whether evidence appears in message, both normalised, on word boundaries.
func quotes(message, evidence string) bool {
	return textmodel.Contains(message, evidence)
}
