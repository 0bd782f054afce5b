package prepare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// BufVersion is the buf every run uses, so lint and breaking rules do not
// drift between runs or machines: package.json pins the same for `npm ci`
// in wiregate's repository (a test keeps the two equal).
const BufVersion = "1.75.0"

// FindBuf returns the buf binary to use: explicit, $WIREGATE_BUF, the
// first buf of the pinned version in PATH's absolute directories outside
// judged, or the node_modules/.bin/buf `npm ci` puts in wiregate's
// repository, the directory above harnessDir (developing wiregate). judged
// is the checkout a gate judges ("" when nothing is judged): a program in
// it is the pull request's, so none is looked up there, whichever way the
// search would reach it, and none there runs, not even for --version.
func FindBuf(ctx context.Context, explicit, harnessDir, judged string) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	if env := os.Getenv("WIREGATE_BUF"); env != "" {
		return env, nil
	}
	var candidates []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if p := filepath.Join(dir, "buf"); filepath.IsAbs(dir) && !within(judged, p) {
			candidates = append(candidates, p)
		}
	}
	if harnessDir != "" {
		candidates = append(candidates, filepath.Join(filepath.Dir(harnessDir), "node_modules", ".bin", "buf"))
	}
	for _, p := range candidates {
		if isExecutable(p) && bufVersion(ctx, p) == BufVersion {
			return p, nil
		}
	}
	return "", exitcode.BadInput("buf %s not found: put it on PATH (npm install -g @bufbuild/buf@%[1]s, or see buf.build/docs/installation), or pass --buf PATH; a gate installs it on first use", BufVersion)
}

// bufVersion is what `buf --version` says, "" when it does not run.
func bufVersion(ctx context.Context, p string) string {
	out, err := proc.Command(ctx, p, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// within says whether path lies in dir (false for an empty dir).
func within(dir, path string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(resolved(dir), resolved(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolved is p with its symbolic links followed, or p when it cannot be.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// isExecutable says whether p is a file someone may execute.
func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0
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
