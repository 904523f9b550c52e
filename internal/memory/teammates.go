package memory

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// MaxTeammateNameLength bounds a teammate's name, in characters.
const MaxTeammateNameLength = 120

// Teammate is an AI agent that works for the user and has its own memory scope.
type Teammate struct {
	ID        string
	Name      string
	CreatedAt time.Time
	// Switches is its memory switch (switch.go).
	Switches Switches
}

func teammateFromRow(r *memorydb.Teammate) Teammate {
	return Teammate{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt,
		Switches: Switches{UseMemory: r.UseMemory, SaveMemory: r.SaveMemory}}
}

// Generation is a teammate's view of how often memory changed (G2): the shared counter, its own
// counter and the number of expired items visible to it.
type Generation struct {
	Shared  int64
	Own     int64
	Expired int64
}

// String renders the generation as "shared:own:expired", the form runs and threads record.
func (g Generation) String() string {
	return strconv.FormatInt(g.Shared, 10) + ":" + strconv.FormatInt(g.Own, 10) + ":" + strconv.FormatInt(g.Expired, 10)
}

// parseID checks that id is a UUID; anything else is a validation error on field.
func parseID(field, id string) (string, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return "", invalid(field, "is not a valid id")
	}
	return u.String(), nil
}

// CreateTeammate adds a teammate; its scope (and generation row) is created with it. User only.
// Names are unique ignoring case and the spaces around them: a name another teammate has is
// BAD_USER_INPUT (the unique index teammates_name_key makes sure even of racing creates).
func (s *Service) CreateTeammate(ctx context.Context, name string) (Teammate, error) {
	return s.CreateTeammateWith(ctx, CreateTeammateInput{Name: name})
}

// CreateTeammateInput is a new teammate.
type CreateTeammateInput struct {
	Name string
	// IdempotencyKey, when set, makes a retry return the teammate this create made instead
	// of adding another (idempotency.go).
	IdempotencyKey *string
}

// CreateTeammateWith is CreateTeammate with an idempotency key: a retry of the same create answers
// the teammate the first one made (ErrNotFound once it is deleted) and adds none.
func (s *Service) CreateTeammateWith(ctx context.Context, in CreateTeammateInput) (Teammate, error) {
	c, err := require(ctx, CredentialUser)
	if err != nil {
		return Teammate{}, err
	}
	name, err := teammateName(in.Name)
	if err != nil {
		return Teammate{}, err
	}
	once, err := s.idempotencyFor(c, in.IdempotencyKey, opCreateTeammate, struct {
		Name string `json:"name"`
	}{name})
	if err != nil {
		return Teammate{}, err
	}
	var (
		t        Teammate
		replayed bool
	)
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		q := queries(tx)
		first, err := once.claimTx(ctx, tx)
		if err != nil || first != nil {
			if first != nil {
				if first.TeammateID == nil {
					return fmt.Errorf("idempotency: the key of a teammate's create names no teammate")
				}
				var row *memorydb.Teammate
				if row, err = q.TeammateGet(ctx, *first.TeammateID); err == nil {
					t, replayed = teammateFromRow(row), true
				}
			}
			return err
		}
		if err := nameFreeTx(ctx, tx, name, nil); err != nil {
			return err
		}
		row, err := q.TeammateInsert(ctx, name)
		if err != nil {
			return nameTakenIfClash(err, name)
		}
		t = teammateFromRow(row)
		if err := once.answerTx(ctx, tx, answer{teammateID: &t.ID}); err != nil {
			return err
		}
		return notifyTx(ctx, tx, Event{Scope: t.ID, Generation: true, Teammate: TeammateCreated})
	})
	if err != nil {
		return Teammate{}, wrapUnlessDomain("create teammate", err)
	}
	if replayed {
		s.log.InfoContext(ctx, "teammate create retried: the first answer", "teammate", t.ID)
		return t, nil
	}
	s.log.InfoContext(ctx, "teammate created", "teammate", t.ID)
	return t, nil
}

// Teammates lists every teammate, oldest first. The user and the worker see all of them; a run sees
// its own teammate only.
func (s *Service) Teammates(ctx context.Context) ([]Teammate, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return nil, err
	}
	var filter *string
	if c.Kind == CredentialRun {
		filter = &c.TeammateID
	}
	rows, err := queries(s.pool).TeammatesList(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("list teammates: %w", err)
	}
	return mapRows(rows, teammateFromRow), nil
}

// Teammate returns one teammate, or ErrNotFound when it doesn't exist or the caller can't see it.
func (s *Service) Teammate(ctx context.Context, id string) (Teammate, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return Teammate{}, err
	}
	if id, err = parseID("id", id); err != nil {
		return Teammate{}, err
	}
	if !c.canReadTeammate(id) {
		return Teammate{}, ErrForbidden
	}
	row, err := queries(s.pool).TeammateGet(ctx, id)
	if err != nil {
		return Teammate{}, err
	}
	return teammateFromRow(row), nil
}

// Generation returns teammate id's current generation (G2).
func (s *Service) Generation(ctx context.Context, teammateID string) (Generation, error) {
	c, err := require(ctx, CredentialUser, CredentialWorker, CredentialRun)
	if err != nil {
		return Generation{}, err
	}
	if teammateID, err = parseID("teammateId", teammateID); err != nil {
		return Generation{}, err
	}
	if !c.canReadTeammate(teammateID) {
		return Generation{}, ErrForbidden
	}
	return generationQ(ctx, queries(s.pool), teammateID)
}

// generationQ reads the G2 generation of a teammate that the caller has been checked to see.
func generationQ(ctx context.Context, q *memorydb.Queries, teammateID string) (Generation, error) {
	g, err := q.GenerationGet(ctx, teammateID)
	if err != nil {
		return Generation{}, err
	}
	return Generation{Shared: g.Shared, Own: g.Own, Expired: g.Expired}, nil
}

// RenameTeammate changes a teammate's name (user only). Names carry no memory, so it is no revision
// and doesn't change a generation. A name another teammate has (ignoring case and the spaces around
// it) is BAD_USER_INPUT; the teammate's own name, in another case, is not.
func (s *Service) RenameTeammate(ctx context.Context, id, name string) (Teammate, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Teammate{}, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return Teammate{}, err
	}
	if name, err = teammateName(name); err != nil {
		return Teammate{}, err
	}
	var t Teammate
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		if err := nameFreeTx(ctx, tx, name, &id); err != nil {
			return err
		}
		row, err := queries(tx).TeammateRename(ctx, memorydb.TeammateRenameParams{ID: id, Name: name})
		if err != nil {
			return nameTakenIfClash(err, name)
		}
		t = teammateFromRow(row)
		// Every open page's list of teammates follows (the name travels by id, never in the event).
		return notifyTx(ctx, tx, Event{Scope: t.ID, Teammate: TeammateRenamed})
	})
	if err != nil {
		return Teammate{}, wrapUnlessDomain("rename teammate", err)
	}
	return t, nil
}

// teammateName validates and trims a teammate's name.
func teammateName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case !utf8.ValidString(name) || strings.ContainsRune(name, 0):
		return "", invalid("name", "must be valid UTF-8 without NUL characters")
	case name == "":
		return "", invalid("name", "must not be empty")
	case utf8.RuneCountInString(name) > MaxTeammateNameLength:
		return "", invalid("name", fmt.Sprintf("must be at most %d characters", MaxTeammateNameLength))
	case strings.IndexFunc(name, refusedInLabel) >= 0:
		return "", invalid("name", labelCharactersReason)
	}
	return name, nil
}

// nameFreeTx refuses name (trimmed) when a teammate other than except already has it, ignoring case:
// BAD_USER_INPUT naming that teammate's name.
func nameFreeTx(ctx context.Context, tx pgx.Tx, name string, except *string) error {
	taken, err := queries(tx).TeammateNamedAs(ctx, memorydb.TeammateNamedAsParams{Name: name, ExceptID: except})
	if err != nil {
		return err
	}
	if len(taken) > 0 {
		return invalid("name", "another teammate is already called "+taken[0])
	}
	return nil
}

// nameTakenIfClash is err, or BAD_USER_INPUT when it is the unique index on names refusing name: a
// teammate of that name was added between nameFreeTx and the write.
func nameTakenIfClash(err error, name string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "teammates_name_key" {
		return invalid("name", "another teammate is already called "+name)
	}
	return err
}

// checkTeammateExists returns ErrNotFound when no teammate has id (already parsed): an unknown id
// is NOT_FOUND, not an empty answer.
func (s *Service) checkTeammateExists(ctx context.Context, id string) error {
	exists, err := queries(s.pool).TeammateExists(ctx, id)
	if err != nil {
		return fmt.Errorf("check teammate: %w", err)
	}
	if !exists {
		return ErrNotFound
	}
	return nil
}

// HasTeammates reports whether any teammate exists (worker or user): a brand-new database has none.
func (s *Service) HasTeammates(ctx context.Context) (bool, error) {
	if _, err := require(ctx, CredentialUser, CredentialWorker); err != nil {
		return false, err
	}
	return queries(s.pool).TeammatesExist(ctx)
}
