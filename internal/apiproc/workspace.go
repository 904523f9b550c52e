// Package apiproc runs the product the way an operator does, for the commands that measure it
// (cmd/bench, cmd/eval): a work directory, the compiled cmd/api in it, a private PostgreSQL cluster
// with migrated databases (Workspace), API processes on free loopback ports (Proc), and GraphQL
// operations sent to them with a bearer token (Proc.Do). What differs between the commands — their
// tokens, extra environment, the HTTP client — is passed in Options.
package apiproc

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/pgcluster"
)

// WorkspaceOptions configures Prepare.
type WorkspaceOptions struct {
	// Dir is the directory to work in; "" makes a temporary one, named after Prefix, which Close
	// removes.
	Dir string
	// Prefix begins the temporary directory's name, e.g. "memory-bench-".
	Prefix string
	// Databases are created in the cluster when missing and migrated to the latest version.
	Databases []string
	// Logger receives progress; nil means slog.Default().
	Logger *slog.Logger
	// Fast is pgcluster.Options.Fast: no fsync, for a cluster nobody keeps.
	Fast bool
}

// Workspace is what a run stands on: a directory, the API binary built into it and a running
// PostgreSQL cluster in its cluster/ folder.
type Workspace struct {
	// Dir is the work directory.
	Dir string
	// Bin is the compiled cmd/api, Dir/api.
	Bin string
	// Cluster is the running cluster, in Dir/cluster.
	Cluster *pgcluster.Cluster

	temporary bool
}

// Prepare makes the work directory, builds cmd/api into it (with the web app as it is built; the
// command must run from the module's root), starts the cluster and creates and migrates
// o.Databases. On error it leaves nothing running and removes a temporary directory.
func Prepare(ctx context.Context, o WorkspaceOptions) (w *Workspace, err error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	w = &Workspace{Dir: o.Dir}
	if w.Dir == "" {
		tmp, err := os.MkdirTemp("", o.Prefix)
		if err != nil {
			return nil, err
		}
		w.Dir, w.temporary = tmp, true
	}
	defer func() {
		if err != nil {
			w.Close(ctx)
		}
	}()
	if w.temporary {
		// The cluster may run as another user (postgres, when this runs as root).
		if err := os.Chmod(w.Dir, 0o755); err != nil {
			return nil, err
		}
	}
	if w.Bin, err = build(ctx, w.Dir); err != nil {
		return nil, err
	}
	log.Info("starting PostgreSQL", "dir", w.Dir)
	if w.Cluster, err = pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(w.Dir, "cluster"), Logger: log, Fast: o.Fast}); err != nil {
		return nil, err
	}
	for _, name := range o.Databases {
		if err := w.Cluster.EnsureDatabase(ctx, name); err != nil {
			return nil, err
		}
		if err := db.MigrateUp(w.Cluster.URL(name)); err != nil {
			return nil, fmt.Errorf("migrate %s: %w", name, err)
		}
	}
	return w, nil
}

// Close stops the cluster (giving it a minute, even when ctx is already cancelled) and removes the
// work directory when Prepare made it. Stop the API processes first.
func (w *Workspace) Close(ctx context.Context) {
	if w.Cluster != nil {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		_ = w.Cluster.Stop(stopCtx)
	}
	if w.temporary {
		_ = os.RemoveAll(w.Dir)
	}
}

// build compiles cmd/api into dir and returns the binary's path. It runs `go build` in the current
// directory, which must be within the module.
func build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "api")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/api").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/api: %v\n%s", err, out)
	}
	return bin, nil
}
