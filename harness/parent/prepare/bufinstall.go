package prepare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// Buf is the buf a gate runs: InstalledBuf's, else the pinned version
// installed into the cache directory (cache: --cache-dir, empty for the
// default) on first use, as the action installs it: with npm where npm is
// on PATH (@bufbuild/buf ships a prebuilt binary: seconds), else with `go
// install` (built from source: a few minutes, once). Both fetch from their
// registry as their own clients do, and neither runs in the checkout.
func Buf(ctx context.Context, explicit, harnessDir, judged, cache string) (string, error) {
	if p, err := InstalledBuf(ctx, explicit, harnessDir, judged, cache); err == nil {
		return p, nil
	}
	dir, err := cacheDir(cache)
	if err != nil {
		return "", err
	}
	return installBuf(ctx, bufDir(dir))
}

// InstalledBuf is the buf a gate would run without installing one:
// FindBuf's, else the pinned version a gate installed into the cache
// directory (cache as for Buf). Its error is FindBuf's.
func InstalledBuf(ctx context.Context, explicit, harnessDir, judged, cache string) (string, error) {
	p, err := FindBuf(ctx, explicit, harnessDir, judged)
	if err == nil {
		return p, nil
	}
	if dir, derr := cacheDir(cache); derr == nil {
		if p, v := cachedBuf(ctx, bufDir(dir)); v == BufVersion {
			return p, nil
		}
	}
	return "", err
}

// bufDir is where the pinned buf is installed in the cache directory.
func bufDir(cache string) string { return filepath.Join(cache, "buf", BufVersion) }

// cachedBuf is the buf an install left in dir (npm's, else go install's)
// and what its --version says; "" and "" when there is none.
func cachedBuf(ctx context.Context, dir string) (path, version string) {
	for _, p := range []string{npmBuf(dir), goBuf(dir)} {
		if isExecutable(p) {
			return p, bufVersion(ctx, p)
		}
	}
	return "", ""
}

// installBuf installs buf into dir and returns it.
func installBuf(ctx context.Context, dir string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("install buf: %w", err)
	}
	// A staging directory renamed into place: a concurrent first use never
	// sees half an install.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return "", fmt.Errorf("install buf: %w", err)
	}
	defer os.RemoveAll(tmp)
	how, err := installInto(ctx, tmp)
	if err != nil {
		return "", exitcode.BadInput("buf %s not found, and installing it %s failed: %v; put buf %[1]s on PATH or pass --buf PATH", BufVersion, how, err)
	}
	if err := os.Rename(tmp, dir); err != nil && !isExecutable(npmBuf(dir)) && !isExecutable(goBuf(dir)) {
		return "", fmt.Errorf("install buf: %w", err)
	}
	if p, v := cachedBuf(ctx, dir); p != "" {
		if v != BufVersion {
			return "", exitcode.BadInput("installed buf says version %q, not %s: pass --buf PATH", v, BufVersion)
		}
		return p, nil
	}
	return "", exitcode.BadInput("installing buf %s %s left no buf in %s: put buf on PATH or pass --buf PATH", BufVersion, how, dir)
}

func npmBuf(dir string) string { return filepath.Join(dir, "node_modules", ".bin", "buf") }
func goBuf(dir string) string  { return filepath.Join(dir, "bin", "buf") }

// installTimeout bounds installing buf: npm takes seconds and go install a
// few minutes; a registry that does not answer must not hold a gate.
const installTimeout = 10 * time.Minute

// installInto installs buf into dir with npm, or else go install, and says which.
func installInto(ctx context.Context, dir string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	how, cmd := "with go install", proc.Command(ctx, "go", "install", "github.com/bufbuild/buf/cmd/buf@v"+BufVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(dir, "bin"), "GOFLAGS=", "GOWORK=off", "CGO_ENABLED=0")
	if npm, err := exec.LookPath("npm"); err == nil && filepath.IsAbs(npm) {
		// In dir: npm reads an .npmrc from where it runs (a registry, scripts), never the checkout's.
		how, cmd = "with npm", proc.Command(ctx, npm, "install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "@bufbuild/buf@"+BufVersion)
	}
	cmd.Dir = dir
	err := captured(cmd)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("it did not finish in %s", installTimeout)
	}
	return how, err
}

// captured runs cmd; its error is its output's last line.
func captured(cmd *proc.Cmd) error {
	if err := cmd.Run(); err != nil {
		if last := cmd.Captured().LastLine(); last != "" {
			return errors.New(last)
		}
		return errors.Unwrap(err)
	}
	return nil
}
