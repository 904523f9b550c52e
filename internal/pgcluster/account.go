package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// serverUser is the system account that runs the server when we are root: PostgreSQL refuses to
// run as root, and Debian's packages create this account.
const serverUser = "postgres"

// account is the OS user that initdb, pg_ctl and the server run as. A nil cred means the invoking
// user, which needs no ownership changes.
type account struct {
	name string
	cred *syscall.Credential
}

func serverAccount() (account, error) {
	if os.Geteuid() != 0 {
		return account{name: "current user"}, nil
	}
	u, err := user.Lookup(serverUser)
	if err != nil {
		return account{}, fmt.Errorf("running as root, which PostgreSQL refuses, and there is no %q user to run it as instead: %w", serverUser, err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return account{}, fmt.Errorf("user %s: uid %q: %w", serverUser, u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return account{}, fmt.Errorf("user %s: gid %q: %w", serverUser, u.Gid, err)
	}
	// Keep the supplementary groups (ssl-cert on Debian) as a login would, instead of root's.
	var groups []uint32
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil {
				groups = append(groups, uint32(g))
			}
		}
	}
	return account{name: serverUser, cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: groups}}, nil
}

// command prepares program to run as the account, from dir (which must be reachable by it, since
// the child changes into dir after dropping privileges).
func (a account) command(ctx context.Context, dir, program string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = dir
	cmd.Env = serverEnv()
	// Bounds Wait should a grandchild keep our output pipes open.
	cmd.WaitDelay = 10 * time.Second
	if a.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: a.cred}
	}
	return cmd
}

// run runs program and folds its output into the error, since initdb and pg_ctl explain failures
// only there.
func (a account) run(ctx context.Context, dir, program string, args ...string) (string, error) {
	out, err := a.command(ctx, dir, program, args...).CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil {
		name := filepath.Base(program)
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			name += " " + args[0] // pg_ctl's subcommand
		}
		return text, fmt.Errorf("%s: %w: %s", name, err, text)
	}
	return text, nil
}

// serverEnv drops the PG* variables of whoever runs us, so a developer's PGDATA or PGPORT cannot
// point the tools at another cluster, and adds mallocSettings where the environment sets none.
func serverEnv() []string {
	var env []string
	set := map[string]bool{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
			name, _, _ := strings.Cut(kv, "=")
			set[name] = true
		}
	}
	for _, kv := range mallocSettings {
		if name, _, _ := strings.Cut(kv, "="); !set[name] {
			env = append(env, kv)
		}
	}
	return env
}

// mallocSettings keep the memory a server process frees for its next statement instead of handing
// it back to the kernel at once (glibc's malloc; other C libraries ignore them). By default glibc
// gives a large block (a hash table of tens of thousands of groups, a sort's memory) its own
// mapping, or trims the top of the heap, when it is freed, so the next statement that needs as much
// takes a page fault for each 4 kB page again: at 100,000 visible items that was a third to a half
// of recall's statement time on this project's virtual machines (docs/PERFORMANCE.md). With these,
// blocks under 16 MB come from the heap and up to 32 MB of free memory at the heap's top is kept
// (in memory only: nothing of it reaches the data files). Set either variable in the environment
// to choose another value.
var mallocSettings = []string{
	"MALLOC_MMAP_THRESHOLD_=16777216",
	"MALLOC_TRIM_THRESHOLD_=33554432",
}

func (a account) chown(path string) error {
	if a.cred == nil {
		return nil
	}
	return os.Lchown(path, int(a.cred.Uid), int(a.cred.Gid))
}

// adopt hands dir to the account when someone else owns it (say, a cluster created by another
// user), because the server refuses a data directory it does not own.
func (a account) adopt(dir string) error {
	if a.cred == nil {
		return nil
	}
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid == a.cred.Uid {
		return nil
	}
	return filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return a.chown(path)
	})
}

// checkReach fails early, with a message naming the directory, when the account cannot reach dir:
// otherwise initdb fails later with a bare "permission denied". The kernel decides (ACLs
// included) by starting probe --version from dir as the account.
func (a account) checkReach(ctx context.Context, dir, probe string) error {
	if a.cred == nil {
		return nil
	}
	_, err := a.command(ctx, dir, probe, "--version").Output()
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("run %s as user %s: %w", probe, a.name, err)
	}
	hint := ""
	if blocker := a.firstUnsearchable(dir); blocker != "" {
		hint = fmt.Sprintf(": %s does not let it through (try chmod o+x %s)", blocker, blocker)
	}
	return fmt.Errorf("PostgreSQL runs as user %s, which cannot reach %s%s; every directory above the cluster must be searchable by that user",
		a.name, dir, hint)
}

// firstUnsearchable names the outermost directory on the way to dir whose mode bits deny the
// account search permission; "" when the mode bits allow it all (an ACL may still deny).
func (a account) firstUnsearchable(dir string) string {
	var chain []string
	for p := dir; ; p = filepath.Dir(p) {
		chain = append(chain, p)
		if p == filepath.Dir(p) {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		info, err := os.Stat(chain[i])
		if err != nil {
			return chain[i]
		}
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok {
			return ""
		}
		var bit os.FileMode = 0o001
		switch {
		case st.Uid == a.cred.Uid:
			bit = 0o100
		case st.Gid == a.cred.Gid || containsGroup(a.cred.Groups, st.Gid):
			bit = 0o010
		}
		if info.Mode().Perm()&bit == 0 {
			return chain[i]
		}
	}
	return ""
}

func containsGroup(groups []uint32, gid uint32) bool {
	for _, g := range groups {
		if g == gid {
			return true
		}
	}
	return false
}
