package memory

import "github.com/open-bot/memory/internal/jobs"

// The background jobs the domain enqueues. internal/jobs queues and runs them without knowing what
// they do; the wiring (internal/wire) registers the handlers: EmbedJobs and ExtractJob.
const (
	// JobEmbed embeds one revision of an item (I1); the job names the item and the revision.
	JobEmbed jobs.Kind = "embed"
	// JobExtract proposes suggestions from a completed run's user message (I2); the job names the run.
	JobExtract jobs.Kind = "extract"
)
