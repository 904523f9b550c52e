package memory

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The compatibility projections (RULES §2) are kept current here, in the transaction of the change
// they mirror: lessons holds one row per active lesson item; settings.about_me renders the active,
// unexpired shared facts and preferences.

const (
	qLessonUpsert = `
		INSERT INTO lessons (item_id, teammate_id, run_id, content, updated_at)
		VALUES ($1, $2, $3, $4, now())
		ON CONFLICT (item_id) DO UPDATE SET content = EXCLUDED.content, run_id = EXCLUDED.run_id, updated_at = now()`

	qAboutMeItems = `
		SELECT kind, key, content FROM memory_items
		 WHERE scope = 'shared' AND status = 'active' AND kind IN ('fact', 'preference')
		   AND (expires_at IS NULL OR expires_at > now())
		 ORDER BY kind, pinned DESC, created_at, id`

	qAboutMeSet = `UPDATE settings SET about_me = $1, updated_at = now() WHERE about_me IS DISTINCT FROM $1`

	qAboutMeGet = `SELECT about_me FROM settings`
)

// projectTx brings both projections in line with item's new state.
func projectTx(ctx context.Context, tx pgx.Tx, item Item) error {
	b := &pgx.Batch{}
	queueLessonProjection(b, item, true)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	return refreshAboutMeIfSharedTx(ctx, tx, item)
}

// queueLessonProjection queues the lessons row's update for item's new state: written while it is
// an active lesson, deleted otherwise — unless the item was no lesson before either (mayHaveRow
// false), as only lessons have a row.
func queueLessonProjection(b *pgx.Batch, item Item, mayHaveRow bool) {
	switch {
	case item.Kind == KindLesson && item.Status == StatusActive:
		b.Queue(qLessonUpsert, item.ID, item.TeammateID, item.SourceRunID, item.Content)
	case mayHaveRow || item.Kind == KindLesson:
		b.Queue(qLessonDelete, item.ID)
	}
}

// refreshAboutMeIfSharedTx re-renders about_me when item is in the shared scope.
func refreshAboutMeIfSharedTx(ctx context.Context, tx pgx.Tx, item Item) error {
	if item.Scope != ScopeShared {
		return nil
	}
	return refreshAboutMeTx(ctx, tx)
}

// refreshAboutMeTx re-renders settings.about_me from the shared scope.
func refreshAboutMeTx(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, qAboutMeItems)
	if err != nil {
		return err
	}
	type entry struct {
		Kind    Kind
		Key     *string
		Content string
	}
	entries, err := pgx.CollectRows(rows, pgx.RowToStructByPos[entry])
	if err != nil {
		return err
	}
	var b strings.Builder
	section := Kind("")
	for _, e := range entries {
		if e.Kind != section {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			section = e.Kind
			if e.Kind == KindFact {
				b.WriteString("Facts:\n")
			} else {
				b.WriteString("Preferences:\n")
			}
		}
		b.WriteString("- ")
		if e.Key != nil {
			b.WriteString(*e.Key + ": ")
		}
		// Continuation lines are indented so each entry stays one bullet.
		b.WriteString(strings.ReplaceAll(strings.TrimSpace(e.Content), "\n", "\n  "))
		b.WriteString("\n")
	}
	_, err = tx.Exec(ctx, qAboutMeSet, b.String())
	return err
}

// AboutMe returns the rendering of the user's shared facts and preferences (settings.about_me).
func (s *Service) AboutMe(ctx context.Context) (string, error) {
	if _, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun); err != nil {
		return "", err
	}
	var text string
	err := s.pool.QueryRow(ctx, qAboutMeGet).Scan(&text)
	return text, err
}
