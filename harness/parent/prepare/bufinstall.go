package prepare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// Buf is the buf a gate runs: FindBuf's, else the pinned version installed
// into the cache directory (cache: --cache-dir, empty for the default) on
// first use, as the action installs it: with npm where npm is on PATH
// (@bufbuild/buf ships a prebuilt binary: seconds), else with `go install`
// (built from source: a few minutes, once). Both fetch from their
// registry as their own clients do, and neither runs in the checkout.
func Buf(ctx context.Context, explicit, harnessDir, judged, cache string) (string, error) {
	p, err := FindBuf(ctx, explicit, harnessDir, judged)
	if err == nil {
		return p, nil
	}
	dir, derr := cacheDir(cache)
	if derr != nil {
		return "", derr
	}
	return installBuf(ctx, filepath.Join(dir, "buf", BufVersion))
}

// installBuf installs buf into dir unless it is there, and returns it.
func installBuf(ctx context.Context, dir string) (string, error) {
	for _, p := range []string{npmBuf(dir), goBuf(dir)} {
		if isExecutable(p) && bufVersion(ctx, p) == BufVersion {
			return p, nil
		}
	}
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
	for _, p := range []string{npmBuf(dir), goBuf(dir)} {
		if isExecutable(p) {
			if v := bufVersion(ctx, p); v != BufVersion {
				return "", exitcode.BadInput("installed buf says version %q, not %s: pass --buf PATH", v, BufVersion)
			}
			return p, nil
		}
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
		out := strings.TrimSpace(cmd.Captured().String())
		if i := strings.LastIndexByte(out, '\n'); i >= 0 {
			out = out[i+1:]
		}
		if out == "" {
			return errors.Unwrap(err)
		}
		return errors.New(out)
	}
	return nil
}
