package resolvers

import (
	"errors"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/memory"
)

func teammateModel(t memory.Teammate) model.Teammate {
	return model.Teammate{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt,
		UseMemory: t.Switches.UseMemory, SaveMemory: t.Switches.SaveMemory}
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

func itemsPayload(items []memory.Item, err error) (*model.MemoryItemsPayload, error) {
	if err != nil {
		return nil, err
	}
	return &model.MemoryItemsPayload{Items: items}, nil
}

func itemRefs(in []model.MemoryItemRevisionInput) []memory.ItemRef {
	out := make([]memory.ItemRef, len(in))
	for i, r := range in {
		out[i] = memory.ItemRef{ID: r.ID, BaseRevision: r.BaseRevision}
	}
	return out
}

// exportFormat maps the schema's enum onto the domain's.
func exportFormat(f model.ExportFormat) memory.ExportFormat {
	if f == model.ExportFormatMarkdown {
		return memory.ExportMarkdown
	}
	return memory.ExportJSON
}

func deleteTeammatePayload(res memory.DeleteResult) *model.DeleteTeammatePayload {
	return &model.DeleteTeammatePayload{
		TeammateID: res.TeammateID, ForgottenItems: res.ForgottenItems, DeletedRuns: res.Runs,
		DeletedThreads: res.Threads, DeletedMessages: res.Messages,
	}
}
