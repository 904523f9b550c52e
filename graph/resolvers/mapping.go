package resolvers

import (
	"errors"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/memory"
)

func teammateModel(t memory.Teammate) model.Teammate {
	return model.Teammate{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt}
}

// nilIfNotFound turns NOT_FOUND into a null result for nullable single-object queries.
func nilIfNotFound(err error) error {
	if errors.Is(err, memory.ErrNotFound) {
		return nil
	}
	return err
}

func itemPayload(item memory.Item, err error) (*model.MemoryItemPayload, error) {
	if err != nil {
		return nil, err
	}
	return &model.MemoryItemPayload{Item: item}, nil
}

func ptrOrErr[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}
