package prepare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// FindBuf returns the buf binary to use: explicit, $WIREGATE_BUF, buf on
// PATH, or node_modules/.bin/buf above one of dirs (where `npm ci` puts the
// pinned @bufbuild/buf).
func FindBuf(explicit string, dirs ...string) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	if env := os.Getenv("WIREGATE_BUF"); env != "" {
		return env, nil
	}
	if p, err := exec.LookPath("buf"); err == nil {
		return p, nil
	}
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		abs, _ := filepath.Abs(dir)
		for d := abs; ; d = filepath.Dir(d) {
			p := filepath.Join(d, "node_modules", ".bin", "buf")
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", exitcode.BadInput("buf not found: run `npm ci` (it installs the pinned @bufbuild/buf) or pass --buf PATH")
}

// checkBufInput makes sure dir is a buf workspace or module root.
func checkBufInput(dir string) error {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return exitcode.BadInput("--buf-input %s: not a directory; point it at the directory holding buf.yaml", dir)
	}
	for _, n := range []string{"buf.yaml", "buf.work.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return nil
		}
	}
	return exitcode.BadInput("--buf-input %s: no buf.yaml there; point it at the directory holding buf.yaml (or run `buf config init` there)", dir)
}

// runBuf runs buf in dir and turns a failure into one line: buf's first
// error line (file:line:col for a syntax error) and what to do.
func runBuf(ctx context.Context, buf, dir string, args ...string) ([]byte, error) {
	cmd := proc.Command(ctx, buf, args...) // buf generate runs plugins: stop them too
	cmd.Dir = dir
	stdout, err := cmd.Output()
	if err == nil {
		return stdout, nil
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return nil, fmt.Errorf("run %s: %w", buf, errors.Unwrap(err))
	}
	msg := cmd.Captured().FirstLine()
	if msg == "" {
		msg = proc.FirstLine(string(stdout))
	}
	return nil, exitcode.BadInput("buf %s in %s: %s", args[0], dir, msg)
}
