package memory

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// The compatibility projections (RULES §2) are kept current here, in the transaction of the change
// they mirror: lessons holds one row per active lesson item; settings.about_me renders the active,
// unexpired shared facts and preferences.

// projectTx brings both projections in line with item's new state.
func projectTx(ctx context.Context, tx pgx.Tx, item Item) error {
	b := newBatch()
	queueLessonProjection(ctx, b, item, true)
	if err := b.send(ctx, tx); err != nil {
		return err
	}
	return refreshAboutMeIfSharedTx(ctx, tx, item)
}

// queueLessonProjection queues the lessons row's update for item's new state: written while it is
// an active lesson, deleted otherwise — unless the item was no lesson before either (mayHaveRow
// false), as only lessons have a row.
func queueLessonProjection(ctx context.Context, b *batch, item Item, mayHaveRow bool) {
	switch {
	case item.Kind == KindLesson && item.Status == StatusActive:
		b.q.LessonUpsert(ctx, memorydb.LessonUpsertParams{
			ItemID: item.ID, TeammateID: item.TeammateID, RunID: item.SourceRunID, Content: item.Content,
		})
	case mayHaveRow || item.Kind == KindLesson:
		b.q.LessonDelete(ctx, item.ID)
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
	q := queries(tx)
	entries, err := q.AboutMeItems(ctx)
	if err != nil {
		return err
	}
	var b strings.Builder
	section := Kind("")
	for _, e := range entries {
		if Kind(e.Kind) != section {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			section = Kind(e.Kind)
			if section == KindFact {
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
	return q.AboutMeSet(ctx, b.String())
}

// AboutMe returns the rendering of the user's shared facts and preferences (settings.about_me).
func (s *Service) AboutMe(ctx context.Context) (string, error) {
	if _, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun); err != nil {
		return "", err
	}
	return queries(s.pool).AboutMeGet(ctx)
}
