package memory

import "github.com/jackc/pgx/v5"

// The recall statements are assembled from fragments in Go (recall_queries.go), so sqlc doesn't
// type their rows: they select itemColumns, an item's columns in itemRow's order, and scanItem reads
// them into an itemRow for itemFromRow.

const itemColumns = `id::text, teammate_id::text, scope, kind, key, content, status, pinned, revision,
	source, evidence, wait_reason, wait_words, source_run_id::text, target_item_id::text, target_revision,
	proposes_forget, times_suggested, resolution, expires_at, created_at, updated_at, forgotten_at`

func scanItem(row pgx.Row) (Item, error) {
	var r itemRow
	err := row.Scan(&r.ID, &r.TeammateID, &r.Scope, &r.Kind, &r.Key, &r.Content, &r.Status, &r.Pinned,
		&r.Revision, &r.Source, &r.Evidence, &r.WaitReason, &r.WaitWords, &r.SourceRunID, &r.TargetItemID,
		&r.TargetRevision, &r.ProposesForget, &r.TimesSuggested, &r.Resolution, &r.ExpiresAt, &r.CreatedAt,
		&r.UpdatedAt, &r.ForgottenAt)
	return itemFromRow(&r), err
}
