package pgcluster

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// serverPrograms must sit in one directory: pg_ctl looks for postgres next to itself.
var serverPrograms = []string{"initdb", "pg_ctl", "postgres"}

// binDir is a directory holding every program in serverPrograms.
type binDir string

func (d binDir) path(program string) string { return filepath.Join(string(d), program) }

// findBinDir prefers Debian's versioned layout, newest major first, because several majors can be
// installed side by side and PATH usually holds only the client wrappers.
func findBinDir() (binDir, error) {
	var notes []string
	candidates, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(candidates, func(a, b string) int { return -compareVersions(a, b) })
	for _, dir := range candidates {
		missing := missingPrograms(dir)
		if len(missing) == 0 {
			return binDir(dir), nil
		}
		notes = append(notes, fmt.Sprintf("%s lacks %s", dir, strings.Join(missing, ", ")))
	}
	if pgCtl, err := exec.LookPath("pg_ctl"); err == nil {
		dir := filepath.Dir(pgCtl)
		missing := missingPrograms(dir)
		if len(missing) == 0 {
			return binDir(dir), nil
		}
		notes = append(notes, fmt.Sprintf("%s (from PATH) lacks %s", dir, strings.Join(missing, ", ")))
	} else {
		notes = append(notes, "no pg_ctl on PATH")
	}
	return "", fmt.Errorf("PostgreSQL server binaries not found: need %s in one directory under /usr/lib/postgresql/<major>/bin or on PATH (%s); run make bootstrap to install them",
		strings.Join(serverPrograms, ", "), strings.Join(notes, "; "))
}

func missingPrograms(dir string) []string {
	var missing []string
	for _, program := range serverPrograms {
		info, err := os.Stat(filepath.Join(dir, program))
		if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
			missing = append(missing, program)
		}
	}
	return missing
}

// compareVersions orders /usr/lib/postgresql/<version>/bin paths numerically, so 9.6 < 10 < 15.
func compareVersions(a, b string) int {
	va := strings.Split(filepath.Base(filepath.Dir(a)), ".")
	vb := strings.Split(filepath.Base(filepath.Dir(b)), ".")
	for i := range max(len(va), len(vb)) {
		var na, nb int
		if i < len(va) {
			na, _ = strconv.Atoi(va[i])
		}
		if i < len(vb) {
			nb, _ = strconv.Atoi(vb[i])
		}
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
	}
	return 0
}

// Program is the path of one of the PostgreSQL programs (pg_dump, pg_restore …) of the newest
// server installed, for a database this package didn't start (DATABASE_URL).
func Program(name string) (string, error) {
	dir, err := findBinDir()
	if err != nil {
		return "", err
	}
	return dir.path(name), nil
}
