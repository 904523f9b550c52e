package memory

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory/packet"
)

// Test hooks, reachable from package memory_test only.

// SetBeforeGenerationRecheck runs f inside StartRun, between the packet and the generation re-read.
func (s *Service) SetBeforeGenerationRecheck(f func()) { s.hooks.beforeGenerationRecheck = f }

// SetBeforeToolWrite runs f in a teammate's write after authentication, before its transaction.
func (s *Service) SetBeforeToolWrite(f func()) { s.hooks.beforeToolWrite = f }

// SetInToolWriteWindow runs f inside a teammate's write transaction, between taking the generation
// rows (and checking the run's generation) and the write.
func (s *Service) SetInToolWriteWindow(f func()) { s.hooks.inToolWriteWindow = f }

// Tools.UpdateMemory without an idempotency key.
func (t *Tools) UpdateMemoryOf(ctx context.Context, id string, baseRevision int, content string) (ToolResult, error) {
	return t.UpdateMemory(ctx, ToolUpdateInput{ID: id, BaseRevision: baseRevision, Content: content})
}

// Tools.ForgetMemory without an idempotency key.
func (t *Tools) ForgetMemoryOf(ctx context.Context, id string) (ToolResult, error) {
	return t.ForgetMemory(ctx, ToolForgetInput{ID: id})
}

// The steps of the service's transactions, for the tests that time or inject between them. They
// take no credential: the request-facing methods that call them check it.

func PrepareRecall(ctx context.Context, s *Service, teammateID, request string) (RecallQuery, error) {
	return s.prepareRecall(ctx, teammateID, request)
}

func BuildPacketTx(ctx context.Context, s *Service, tx pgx.Tx, teammateID string, q RecallQuery) (Packet, error) {
	return s.buildPacketTx(ctx, tx, teammateID, q)
}

func EnqueueEmbedTx(ctx context.Context, s *Service, tx jobs.DBTX, item Item) error {
	return s.enqueueEmbedTx(ctx, tx, item)
}

func EnqueueExtractTx(ctx context.Context, s *Service, tx pgx.Tx, run Run) error {
	return s.enqueueExtractTx(ctx, tx, run)
}

var WriteContextsTx = writeContextsTx

// SetAfterSwitchCheck runs f inside a teammate's write transaction, right after it read the memory
// switch and before the write.
func (s *Service) SetAfterSwitchCheck(f func()) { s.hooks.afterSwitchCheck = f }

// parseImport is parseImportWithSwitch without the switch, for the tests of the file's validation.
func parseImport(data string, now time.Time) ([]importItem, error) {
	items, _, err := parseImportWithSwitch(data, now)
	return items, err
}

// FullTextPacketUncut is the packet recall would give teammateID for request with embeddings off,
// built from the full-text list's 30 candidates rather than qRecallFullText's first
// packet.MaxEntries (TestFullTextCutKeepsThePacket): its text and its entries' item ids.
func FullTextPacketUncut(ctx context.Context, pool *pgxpool.Pool, teammateID, request string) (string, []string, error) {
	if recallFullTextUncut == qRecallFullText || packetEntriesText != strconv.Itoa(packet.MaxEntries) {
		return "", nil, errors.New("qRecallFullText has no cut to packet.MaxEntries")
	}
	rows, err := pool.Query(ctx, recallFullTextUncut, teammateID, requestWords(request))
	if err != nil {
		return "", nil, err
	}
	candidates, err := pgx.CollectRows(rows, scanCandidate)
	if err != nil {
		return "", nil, err
	}
	text, entries := layOut(candidates)
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.Item.ID
	}
	return text, ids, nil
}

// TxEndTimeout is txEndTimeout (tx.go).
const TxEndTimeout = txEndTimeout

// InWriteTx and InReadTx are the service's transaction helpers (tx.go).
func InWriteTx(ctx context.Context, s *Service, fn func(pgx.Tx) error) error {
	return s.inWriteTx(ctx, fn)
}
func InReadTx(ctx context.Context, s *Service, fn func(pgx.Tx) error) error {
	return s.inReadTx(ctx, fn)
}
