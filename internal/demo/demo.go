// Package demo loads a small, clearly labelled example into a brand-new embedded database, so that a
// newcomer's first `make run` shows every screen working. It goes through internal/memory like any
// client (the user's, the worker's and a run's credentials) and owns no rules of its own.
package demo

import (
	"context"
	"fmt"

	"github.com/open-bot/memory/internal/memory"
)

// Seed loads the demo when the database has no teammates yet; it reports whether it did.
func Seed(ctx context.Context, svc *memory.Service) (bool, error) {
	user := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
	if exists, err := svc.HasTeammates(user); err != nil || exists {
		return false, err
	}
	worker := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialWorker})
	step := func(what string, err error) error {
		if err != nil {
			return fmt.Errorf("demo: %s: %w", what, err)
		}
		return nil
	}

	ada, err := svc.CreateTeammate(user, "Ada (demo)")
	if err := step("teammate", err); err != nil {
		return false, err
	}
	ben, err := svc.CreateTeammate(user, "Ben (demo)")
	if err := step("teammate", err); err != nil {
		return false, err
	}
	home, err := svc.CreateMemory(user, memory.CreateInput{Kind: memory.KindFact, Content: "Lives in Lisbon (demo)"})
	if err := step("shared fact", err); err != nil {
		return false, err
	}
	coffee := "coffee"
	if _, err := svc.CreateMemory(user, memory.CreateInput{Kind: memory.KindPreference, Key: &coffee, Content: "Black, no sugar (demo)"}); err != nil {
		return false, step("shared preference", err)
	}
	if _, err := svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &ada.ID}, Kind: memory.KindNote, Pinned: true,
		Content: "Ada drafts replies to the user's email, friendly and short (demo)"}); err != nil {
		return false, step("own note", err)
	}

	// A run in which Ada saves what the user asked for and suggests something the user didn't.
	run, err := svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: ada.ID, StartedByUser: true,
		Message: "Where do I live? Also, please remember that my sister's name is Eva."})
	if err := step("run", err); err != nil {
		return false, err
	}
	cred, err := svc.AuthenticateRun(ctx, run.Token)
	if err := step("run credential", err); err != nil {
		return false, err
	}
	asRun := memory.WithCredential(ctx, cred)
	if _, err := svc.Tools().Remember(asRun, memory.RememberInput{Content: "my sister's name is Eva"}); err != nil {
		return false, step("confirmed save", err)
	}
	if _, err := svc.Tools().Remember(asRun, memory.RememberInput{Kind: memory.KindPreference, Content: "Enjoys long walks on Sundays (demo suggestion)"}); err != nil {
		return false, step("suggestion", err)
	}
	if _, err := svc.Tools().CompleteRun(asRun, "You live in Lisbon. I'll remember that your sister is Eva."); err != nil {
		return false, step("reply", err)
	}
	down := memory.RatingDown
	if _, err := svc.RateRun(user, run.Run.ID, down); err != nil {
		return false, step("rating", err)
	}
	if _, err := svc.KeepLesson(user, run.Run.ID, "Sign replies with the user's first name (demo lesson)."); err != nil {
		return false, step("lesson", err)
	}
	// A correction after the run, so its memory context shows a CHANGED entry.
	if _, err := svc.EditMemory(user, memory.EditInput{ID: home.ID, BaseRevision: home.Revision, Content: ptr("Lives in Porto (demo)")}); err != nil {
		return false, step("correction", err)
	}

	benRun, err := svc.Worker().StartRun(worker, memory.StartRunInput{TeammateID: ben.ID, StartedByUser: true, Message: "How do I take my coffee?"})
	if err := step("run", err); err != nil {
		return false, err
	}
	cred, err = svc.AuthenticateRun(ctx, benRun.Token)
	if err := step("run credential", err); err != nil {
		return false, err
	}
	if _, err := svc.Tools().CompleteRun(memory.WithCredential(ctx, cred), "Black, no sugar."); err != nil {
		return false, step("reply", err)
	}
	return true, nil
}

func ptr[T any](v T) *T { return &v }
