package backup

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/open-bot/memory/internal/db"
)

// A backup is one tar file of two members: manifest.json (Manifest), then memory.pgdump, the
// memory database as pg_dump's custom format writes it — one consistent snapshot, whatever the API
// is doing meanwhile. It holds every text the database held, so it is written with mode 0600.

// FormatName and FormatVersion identify the archive; Restore refuses a newer format.
const (
	FormatName    = "memory-backup"
	FormatVersion = 1
)

const (
	manifestMember = "manifest.json"
	dumpMember     = "memory.pgdump"
)

// Manifest is what a backup says of itself.
type Manifest struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// CreatedAt is when the dump's snapshot was taken (just before).
	CreatedAt time.Time `json:"created_at"`
	// Migration is the schema's migration version; Restore migrates an older one up and refuses a
	// newer one.
	Migration uint `json:"migration"`
	// KeyFingerprint is the tombstone key's fingerprint (memory.KeyFingerprint): never the key. A
	// restore needs the same key, kept apart from the backups (docs/OPERATIONS.md, Backups).
	KeyFingerprint string `json:"key_fingerprint"`
}

// Info is one backup file.
type Info struct {
	Path     string
	Bytes    int64
	Manifest Manifest
}

// Source is the database a backup is taken of.
type Source struct {
	DatabaseURL string
	// PGDump is the pg_dump program; its major version must be at least the server's.
	PGDump string
}

// ScheduledPrefix and ScheduledSuffix name the backups Create writes into a directory
// (NamedIn); Prune removes only files named so.
const (
	ScheduledPrefix = "memory-"
	ScheduledSuffix = ".backup"
)

// NamedIn is the path of a backup made at t in dir: memory-20261204T051815.123Z.backup.
func NamedIn(dir string, t time.Time) string {
	return filepath.Join(dir, ScheduledPrefix+t.UTC().Format("20060102T150405.000Z")+ScheduledSuffix)
}

// Create writes a backup of src to path (replacing a file there only once the new one is complete
// and synced). fingerprint is the installation's tombstone key fingerprint.
func Create(ctx context.Context, src Source, path, fingerprint string) (Info, error) {
	version, dirty, err := db.Version(src.DatabaseURL)
	if err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	if dirty {
		return Info{}, fmt.Errorf("backup: the schema is dirty at migration %d (api migrate force explains it)", version)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	m := Manifest{Format: FormatName, Version: FormatVersion, CreatedAt: time.Now().UTC(), Migration: version,
		KeyFingerprint: fingerprint}
	dump, err := os.CreateTemp(filepath.Dir(path), ".dump-*")
	if err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(dump.Name())
	defer dump.Close()
	if err := runPG(ctx, src.PGDump, src.DatabaseURL, "--format=custom", "--file="+dump.Name()); err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return Info{}, err
	}
	partial := path + ".partial"
	out, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(partial)
	defer out.Close()
	if err := writeArchive(out, manifest, dump); err != nil {
		return Info{}, fmt.Errorf("backup: write %s: %w", path, err)
	}
	if err := out.Sync(); err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	if err := out.Close(); err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(partial, path); err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return Info{}, fmt.Errorf("backup: %w", err)
	}
	return Info{Path: path, Bytes: st.Size(), Manifest: m}, nil
}

// writeArchive writes the tar: the manifest, then the dump.
func writeArchive(w io.Writer, manifest []byte, dump *os.File) error {
	st, err := dump.Stat()
	if err != nil {
		return err
	}
	if _, err := dump.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	now := time.Now()
	if err := tw.WriteHeader(&tar.Header{Name: manifestMember, Mode: 0o600, Size: int64(len(manifest)), ModTime: now}); err != nil {
		return err
	}
	if _, err := tw.Write(manifest); err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: dumpMember, Mode: 0o600, Size: st.Size(), ModTime: now}); err != nil {
		return err
	}
	if _, err := io.Copy(tw, dump); err != nil {
		return err
	}
	return tw.Close()
}

// ErrNotABackup: the file is not an archive Create wrote.
var ErrNotABackup = errors.New("not a memory backup (want a file `api backup` wrote)")

// Read returns the manifest of the backup at path.
func Read(path string) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	m, _, err := readManifest(f)
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	return Info{Path: path, Bytes: st.Size(), Manifest: m}, nil
}

// readManifest reads the first member of the archive and leaves tr at the second.
func readManifest(r io.Reader) (Manifest, *tar.Reader, error) {
	tr := tar.NewReader(r)
	h, err := tr.Next()
	if err != nil || h.Name != manifestMember || h.Size > 1<<16 {
		return Manifest{}, nil, ErrNotABackup
	}
	var m Manifest
	raw, err := io.ReadAll(tr)
	if err != nil {
		return Manifest{}, nil, ErrNotABackup
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Format != FormatName {
		return Manifest{}, nil, ErrNotABackup
	}
	if m.Version > FormatVersion || m.Version < 1 {
		return Manifest{}, nil, fmt.Errorf("backup format version %d: this api reads version %d and older", m.Version, FormatVersion)
	}
	return m, tr, nil
}

// extractDump writes the backup's dump to dst.
func extractDump(path, dst string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, tr, err := readManifest(f)
	if err != nil {
		return err
	}
	h, err := tr.Next()
	if err != nil || h.Name != dumpMember {
		return ErrNotABackup
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	if _, err := io.Copy(out, tr); err != nil {
		return err
	}
	return out.Close()
}

// List returns the backups in dir that Create named (NamedIn), newest first. A file that isn't a
// readable backup is skipped.
func List(dir string) ([]Info, error) {
	names, err := filepath.Glob(filepath.Join(dir, ScheduledPrefix+"*"+ScheduledSuffix))
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, name := range names {
		if info, err := Read(name); err == nil {
			out = append(out, info)
		}
	}
	slices.SortFunc(out, func(a, b Info) int { return b.Manifest.CreatedAt.Compare(a.Manifest.CreatedAt) })
	return out, nil
}

// Prune removes all but the newest keep backups in dir (List), and returns what it removed.
func Prune(dir string, keep int) ([]string, error) {
	all, err := List(dir)
	if err != nil || len(all) <= keep {
		return nil, err
	}
	var removed []string
	for _, info := range all[keep:] {
		if err := os.Remove(info.Path); err != nil {
			return removed, err
		}
		removed = append(removed, info.Path)
	}
	return removed, nil
}

// runPG runs a PostgreSQL client program against databaseURL; the password travels in PGPASSWORD,
// never on the command line, where any local user could read it.
func runPG(ctx context.Context, program, databaseURL string, args ...string) error {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return fmt.Errorf("database URL: %w", err)
	}
	env := os.Environ()
	if pw, ok := u.User.Password(); ok {
		env = append(env, "PGPASSWORD="+pw)
		u.User = url.User(u.User.Username())
	}
	cmd := exec.CommandContext(ctx, program, append(args, "--dbname="+u.String())...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(program), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// syncDir makes a rename or a file's creation in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
