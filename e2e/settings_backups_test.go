package e2e

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// backupOnce makes one backup of the suite's database with the real `api backup`, into the data
// directory's backups/ (the default MEMORY_BACKUP_DIR of the embedded database), while the suite's
// server serves it.
var backupOnce = sync.OnceValues(func() (string, error) {
	cmd := exec.Command(serverBin, "backup")
	cmd.Env = append(cmd.Environ(), "MEMORY_DATA_DIR="+filepath.Join(workDir, "data"), "DATABASE_URL=",
		"MEMORY_USER_TOKEN=", "MEMORY_WORKER_TOKEN=", "MEMORY_DEMO=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("api backup: %v\n%s", err, out)
	}
	return string(out), nil
})

// F8: with a backup made, Settings → Backups shows its size and when it was made, the schedule (none
// in the suite), how many are kept, and that a restore applies later forgets again.
func TestSettingsBackups(t *testing.T) {
	out, err := backupOnce()
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Backups struct {
			Count int
			Last  *struct{ Bytes float64 }
		}
	}
	if err := user.do(context.Background(), `query { backups { count last { bytes } } }`, nil, &status); err != nil {
		t.Fatal(err)
	}
	if status.Backups.Count < 1 || status.Backups.Last == nil {
		t.Fatalf("the API reports %+v after `api backup` said %q", status.Backups, out)
	}
	size := humanBytes(status.Backups.Last.Bytes)

	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openPage(t, vp, "/settings")
		p.click(tid("settings-backups"))
		p.waitVisible(tid("backups-section", `[data-state="ready"]`))
		p.waitVisible(tid("settings-backups", `[aria-current="page"]`))
		if got := p.text(tid("backups-last-size")); got != size {
			t.Errorf("the latest backup's size says %q, want %q (%v bytes)", got, size, status.Backups.Last.Bytes)
		}
		if got := p.text(tid("backups-last-time")); !strings.Contains(got, "ago") && !strings.Contains(got, "just now") {
			t.Errorf("the latest backup's time says %q, want how long ago", got)
		}
		if got, want := p.text(tid("backups-reapplied")), "Restoring a backup never brings back what you forgot after it was made: forgets are re-applied."; got != want {
			t.Errorf("the section says %q, want %q", got, want)
		}
		if got := p.text(tid("backups-interval")); !strings.Contains(got, "No schedule: run api backup or set MEMORY_BACKUP_INTERVAL") {
			t.Errorf("the schedule says %q, want that there is none and how to make backups", got)
		}
		if got := p.text(tid("backups-keep")); !strings.Contains(got, "The newest 7 backups") {
			t.Errorf("how many are kept says %q, want the default 7", got)
		}
		// The page names no directory: the backup's file name isn't shown, nor any path.
		if said := p.text(tid("backups-section")); strings.Contains(said, workDir) || strings.Contains(said, ".backup") {
			t.Errorf("the section shows a path or a file name: %q", said)
		}
		p.assertAccessible("Settings → Backups")
		p.shot("backups")
	})
}

// humanBytes is the web app's formatBytes (frontend/src/settings/backupWords.ts).
func humanBytes(b float64) string {
	if b < 1000 {
		if b == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", int(math.Round(b)))
	}
	units := []string{"kB", "MB", "GB", "TB", "PB"}
	v, u := b/1000, 0
	for v >= 999.5 && u < len(units)-1 {
		v /= 1000
		u++
	}
	if v < 9.95 {
		return fmt.Sprintf("%.1f %s", v, units[u])
	}
	return fmt.Sprintf("%d %s", int(math.Round(v)), units[u])
}
