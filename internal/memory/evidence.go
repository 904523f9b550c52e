package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Evidence is a conversation (S4). An item's evidence — the sentence of the user's
// message a suggestion came from — and the words of that message that made it wait (A8) are part of
// the conversation of the run that made it, and so of that run's teammate. Once the user confirms
// another teammate's suggestion for everyone, the item is shared, but its evidence is not: a run reads
// it only when the item came from its own teammate's conversations. Likewise an item's history shown
// to a run names no other teammate: a revision another teammate's run wrote is by
// ActorAnotherTeammate, and the run of another teammate a revision or an item names is withheld. The
// user (and the worker) see everything.
//
// Every read a run makes of items and revisions passes through withholdForRun or
// withholdAuthorsForRun: Item (memoryItem, memoryChanged's item), ListItems, toolSearchMemory,
// recallPreview, memoryContext, lessons, Revisions, and the item a tool answers with (runWriteTx).
// Which run belongs to which teammate is read from runs; a run that no longer exists (its teammate was
// deleted) belongs to no one, and what names it is withheld — fail closed. The evidence itself goes
// with its run: when a teammate is deleted, the cascade that clears source_run_id clears evidence and
// wait_words with it (migration 000016's trigger), from shared items too.

// ActorAnotherTeammate is how a run sees the actor of a revision that another teammate's run wrote
// (S4): a teammate, unnamed.
const ActorAnotherTeammate = "teammate"

// ownRuns returns, of the runs ids names, those of c's teammate (c is a run). Its own run is known
// without a query.
func ownRuns(ctx context.Context, db memorydb.DBTX, c Credential, ids []string) (map[string]bool, error) {
	own := map[string]bool{c.RunID: true}
	var ask []string
	for _, id := range ids {
		if id != c.RunID {
			ask = append(ask, id)
		}
	}
	if len(ask) == 0 {
		return own, nil
	}
	rows, err := queries(db).RunsTeammates(ctx, ask)
	if err != nil {
		return nil, fmt.Errorf("runs' teammates: %w", err)
	}
	for _, r := range rows {
		if r.TeammateID == c.TeammateID {
			own[r.ID] = true
		}
	}
	return own, nil
}

// withholdForRun blanks, for a run credential, what items tell of another teammate's conversation:
// the evidence, the wait words and the source run of every item that didn't come from a run of c's
// teammate (S4). It changes nothing for the user and the worker.
func withholdForRun(ctx context.Context, db memorydb.DBTX, c Credential, items []Item) error {
	if c.Kind != CredentialRun {
		return nil
	}
	var ids []string
	for _, it := range items {
		if it.SourceRunID != nil {
			ids = append(ids, *it.SourceRunID)
		}
	}
	own, err := ownRuns(ctx, db, c, ids)
	if err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		if it.SourceRunID != nil && own[*it.SourceRunID] {
			continue
		}
		it.Evidence, it.WaitWords, it.SourceRunID = nil, nil, nil
	}
	return nil
}

// withholdAuthorsForRun makes, for a run credential, an item's history name no other teammate (S4):
// a revision by another teammate is by ActorAnotherTeammate, and a revision's run is withheld unless
// it is a run of c's teammate. It changes nothing for the user and the worker.
func withholdAuthorsForRun(ctx context.Context, db memorydb.DBTX, c Credential, revs []Revision) error {
	if c.Kind != CredentialRun {
		return nil
	}
	var ids []string
	for _, r := range revs {
		if r.RunID != nil {
			ids = append(ids, *r.RunID)
		}
	}
	own, err := ownRuns(ctx, db, c, ids)
	if err != nil {
		return err
	}
	for i := range revs {
		r := &revs[i]
		if strings.HasPrefix(r.Actor, "teammate:") && r.Actor != actorOf(Run{TeammateID: c.TeammateID}) {
			r.Actor = ActorAnotherTeammate
		}
		if r.RunID != nil && !own[*r.RunID] {
			r.RunID = nil
		}
	}
	return nil
}
