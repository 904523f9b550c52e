package memory

import "github.com/jackc/pgx/v5"

func scanItem(row pgx.Row) (Item, error) {
	var i Item
	err := row.Scan(&i.ID, &i.TeammateID, &i.Scope, &i.Kind, &i.Key, &i.Content, &i.Status, &i.Pinned,
		&i.Revision, &i.Source, &i.Evidence, &i.SourceRunID, &i.TargetItemID, &i.TargetRevision,
		&i.ProposesForget, &i.TimesSuggested, &i.Resolution, &i.ExpiresAt, &i.CreatedAt, &i.UpdatedAt, &i.ForgottenAt)
	return i, err
}

func scanRevision(row pgx.Row) (Revision, error) {
	var r Revision
	err := row.Scan(&r.ItemID, &r.Revision, &r.Content, &r.Key, &r.Kind, &r.Pinned, &r.ExpiresAt,
		&r.Action, &r.Actor, &r.BasedOn, &r.RunID, &r.CreatedAt)
	return r, err
}
