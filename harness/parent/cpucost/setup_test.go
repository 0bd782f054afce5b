package cpucost

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// noValgrindOnPath leaves PATH with one empty directory, where a test's
// fake installer can put a valgrind.
func noValgrindOnPath(t *testing.T) string {
	t.Helper()
	if unsupported() != "" {
		t.Skip(unsupported())
	}
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	return dir
}

// installsInto is an installer that puts a fake valgrind into dir.
func installsInto(dir string, calls *int) func(context.Context) error {
	return func(context.Context) error {
		*calls++
		return os.WriteFile(filepath.Join(dir, "valgrind"), []byte("#!/bin/sh\n"), 0o755)
	}
}

func TestPrepareOffNeverCounts(t *testing.T) {
	s, err := Prepare(context.Background(), Off, Env{Valgrind: fakeValgrind(t, "exit 0")})
	if err != nil || s.Valgrind != "" || !strings.Contains(s.Reason, "cpu-cost is off") {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestPrepareFindsValgrind(t *testing.T) {
	if unsupported() != "" {
		t.Skip(unsupported())
	}
	vg := fakeValgrind(t, "exit 0")
	for _, m := range []Mode{Auto, On} {
		s, err := Prepare(context.Background(), m, Env{Valgrind: vg, CI: true, Install: func(context.Context) error { panic("installed") }})
		if err != nil || s.Valgrind != vg || s.Reason != "" || s.Installed != "" {
			t.Errorf("%s: %+v %v", m, s, err)
		}
	}
}

// A developer's machine is never changed: auto says what to install and
// goes on with time only; on stops with one line naming the input.
func TestPrepareLocallyNeverInstalls(t *testing.T) {
	dir := noValgrindOnPath(t)
	calls := 0
	env := Env{Install: installsInto(dir, &calls)}
	s, err := Prepare(context.Background(), Auto, env)
	if err != nil || s.Valgrind != "" || !strings.Contains(s.Reason, "install valgrind to count instructions") ||
		!strings.Contains(s.Reason, "time only") || strings.Contains(s.Reason, "\n") {
		t.Fatalf("auto: %+v %v", s, err)
	}
	_, err = Prepare(context.Background(), On, env)
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "cpu-cost is on") ||
		!strings.Contains(err.Error(), "valgrind is not installed") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("on: %v", err)
	}
	if calls != 0 {
		t.Fatalf("installed %d times outside CI", calls)
	}
}

func TestPrepareInstallsOnCI(t *testing.T) {
	dir := noValgrindOnPath(t)
	calls := 0
	for _, m := range []Mode{Auto, On} {
		os.Remove(filepath.Join(dir, "valgrind"))
		s, err := Prepare(context.Background(), m, Env{CI: true, Install: installsInto(dir, &calls)})
		if err != nil || s.Valgrind != filepath.Join(dir, "valgrind") || !strings.Contains(s.Installed, "installed valgrind with apt-get in") {
			t.Errorf("%s: %+v %v", m, s, err)
		}
	}
	if calls != 2 {
		t.Errorf("%d installs, want 2", calls)
	}
}

// Installing can fail or hang: auto goes on with time only and says why in
// one line; on stops. Neither takes longer than the install's bound.
func TestPrepareInstallFailingOrHanging(t *testing.T) {
	noValgrindOnPath(t)
	failing := func(context.Context) error {
		return errors.New("apt-get install -y valgrind: E: Unable to locate package valgrind")
	}
	hanging := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	for name, c := range map[string]struct {
		install func(context.Context) error
		says    string
	}{"failing": {failing, "Unable to locate package valgrind"}, "hanging": {hanging, "did not finish in 200ms"}} {
		env := Env{CI: true, Install: c.install, InstallTimeout: 200 * time.Millisecond}
		start := time.Now()
		s, err := Prepare(context.Background(), Auto, env)
		if err != nil || s.Valgrind != "" || !strings.Contains(s.Reason, "installing it failed") ||
			!strings.Contains(s.Reason, c.says) || !strings.Contains(s.Reason, "time only") || strings.Contains(s.Reason, "\n") {
			t.Errorf("%s, auto: %+v %v", name, s, err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: took %s", name, took)
		}
		_, err = Prepare(context.Background(), On, env)
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "cpu-cost is on") || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s, on: %v", name, err)
		}
	}
}

func TestInstallCommands(t *testing.T) {
	install := []string{"apt-get", "install", "-y", "-q", "--no-install-recommends", "valgrind"}
	update := []string{"apt-get", "update", "-q"}
	if got := installCommands(true); !reflect.DeepEqual(got, [][]string{install, update, install}) {
		t.Errorf("root: %q", got)
	}
	sudo := func(argv []string) []string { return append([]string{"sudo", "-n"}, argv...) }
	if got := installCommands(false); !reflect.DeepEqual(got, [][]string{sudo(install), sudo(update), sudo(install)}) {
		t.Errorf("not root: %q", got)
	}
}

// installWithAPT against a fake apt-get (and sudo) on PATH: the first
// install fails as with stale package lists, the update and the second
// install succeed; a failure is one line with apt-get's last words.
func TestInstallWithAPTRetriesAfterUpdate(t *testing.T) {
	dir := noValgrindOnPath(t)
	log := filepath.Join(dir, "calls")
	script := func(name, body string) {
		os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755)
	}
	for _, tool := range []string{"sh", "cat", "echo", "touch", "test"} {
		if p, err := lookIn(tool); err == nil {
			os.Symlink(p, filepath.Join(dir, tool))
		}
	}
	script("sudo", `[ "$1" = -n ] || exit 9; shift; exec "$@"`)
	script("apt-get", `echo "$DEBIAN_FRONTEND $*" >> `+log+`
case "$1" in
update) touch `+dir+`/updated ;;
install) test -e `+dir+`/updated || { echo "E: Unable to fetch some archives, maybe run apt-get update"; exit 100; } ;;
esac`)
	if err := installWithAPT(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	want := "noninteractive install -y -q --no-install-recommends valgrind\nnoninteractive update -q\nnoninteractive install -y -q --no-install-recommends valgrind\n"
	if string(b) != want {
		t.Fatalf("apt-get calls:\n%s\nwant:\n%s", b, want)
	}
	script("apt-get", `echo "Reading package lists..."; echo "E: Could not get lock /var/lib/dpkg/lock-frontend"; exit 100`)
	err := installWithAPT(context.Background())
	if err == nil || !strings.Contains(err.Error(), "E: Could not get lock") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("failing apt-get: %v", err)
	}
}

// lookIn finds a tool on the PATH the test started with.
func lookIn(tool string) (string, error) {
	for _, d := range []string{"/usr/bin", "/bin"} {
		p := filepath.Join(d, tool)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}
