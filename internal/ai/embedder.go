package ai

import (
	"context"
	"errors"
	"fmt"

	"github.com/open-bot/memory/internal/memory"
)

// Embedder binds a client to the configured embedding model, for internal/memory: EmbedQuery is its
// memory.QueryEmbedder (recall, P3), EmbedTexts the batch function of memory.Background.EmbedJobs (I1).
type Embedder struct {
	Client *Client
	Model  string
	// Dimensions is MEMORY_EMBEDDING_DIMENSIONS (0: the model's own size).
	Dimensions int
}

var _ memory.QueryEmbedder = Embedder{}

// EmbedTexts embeds several texts in one request (the batch function of memory.Background.EmbedJobs).
func (e Embedder) EmbedTexts(ctx context.Context, texts []string) ([][]float32, error) {
	return e.Client.Embed(ctx, e.Model, e.Dimensions, texts)
}

// EmbedText embeds one text.
func (e Embedder) EmbedText(ctx context.Context, text string) ([]float32, error) {
	v, err := e.Client.Embed(ctx, e.Model, e.Dimensions, []string{text})
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// EmbedQuery embeds a recall request. A spent budget also matches memory.ErrAIBudgetSpent, so recall
// can say why it fell back to full text.
func (e Embedder) EmbedQuery(ctx context.Context, text string) ([]float32, string, error) {
	v, err := e.EmbedText(ctx, text)
	if errors.Is(err, ErrBudgetSpent) {
		return nil, "", fmt.Errorf("%w: %w", memory.ErrAIBudgetSpent, err)
	}
	if err != nil {
		return nil, "", err
	}
	return v, e.Model, nil
}

// Extractor binds a client to the configured extraction model: Extract is the extract function of
// memory.Background.ExtractJob (I2).
type Extractor struct {
	Client *Client
	Model  string
}

// Extract asks the model for candidates in the user's message (memory's instructions and schema,
// strict json_schema).
func (e Extractor) Extract(ctx context.Context, message string) (memory.Extraction, error) {
	var out memory.Extraction
	err := e.Client.ChatJSON(ctx, e.Model, []Message{
		{Role: "system", Content: memory.ExtractionInstructions},
		{Role: "user", Content: message},
	}, memory.ExtractionSchemaName, memory.ExtractionSchema, &out)
	return out, err
}
