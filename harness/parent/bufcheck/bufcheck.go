// Package bufcheck runs buf lint on head and buf breaking against the base,
// and turns buf's JSON lines into report findings with repo-relative files
// (so annotations land on the right lines). A schema that does not compile
// is one error naming file:line:column, not a finding.
package bufcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// Check says where buf runs and how its paths map into the repository.
type Check struct {
	Buf      string // the buf binary
	Dir      string // head checkout: buf runs here
	BufInput string // relative to Dir
	// FileRoot is where BufInput sits in the repository (the working
	// directory's prefix joined with BufInput), for repo-relative files.
	FileRoot string
	// Config is the buf.yaml buf runs with instead of BufInput's own
	// (Vetted.Config); empty: BufInput's own.
	Config string
}

// Lint runs buf lint on head.
func (c Check) Lint(ctx context.Context) ([]report.Finding, error) {
	return c.findings(ctx, report.KindLint, "lint", c.BufInput, "--error-format=json")
}

// Breaking runs buf breaking on head against the same buf input in
// againstDir (a checkout of the base, or of a release).
func (c Check) Breaking(ctx context.Context, againstDir string) ([]report.Finding, error) {
	against := filepath.Join(againstDir, c.BufInput)
	if _, err := os.Stat(against); err != nil {
		return nil, exitcode.BadInput("buf-input %s does not exist in %s: set breaking to false for the first run", c.BufInput, againstDir)
	}
	return c.findings(ctx, report.KindBreaking, "breaking", c.BufInput, "--against", against, "--error-format=json")
}

// exitFindings is buf's exit code when it ran and found something.
const exitFindings = 100

func (c Check) findings(ctx context.Context, kind string, args ...string) ([]report.Finding, error) {
	if _, err := os.Stat(filepath.Join(c.Dir, c.BufInput)); err != nil {
		return nil, exitcode.BadInput("buf-input %s does not exist in %s", c.BufInput, c.Dir)
	}
	if c.Config != "" {
		args = append(args, "--config="+c.Config)
	}
	// buf's own children (its node launcher runs the binary) stop with it.
	cmd := proc.Command(ctx, c.Buf, args...)
	cmd.Dir = c.Dir
	stdout, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("buf %s: %w", args[0], context.Cause(ctx))
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, fmt.Errorf("run %s %s: %w", c.Buf, args[0], errors.Unwrap(err))
	}
	annotations, other := Parse(stdout)
	if msg := CompileError(annotations, c.FileRoot); msg != "" {
		return nil, exitcode.BadInput("%s", msg)
	}
	code := cmd.ProcessState.ExitCode()
	if code == 0 || (code == exitFindings && len(other) == 0) {
		return Findings(kind, annotations, c.FileRoot), nil
	}
	why := cmd.Captured().FirstLine()
	if why == "" && len(other) > 0 {
		why = other[0]
	}
	if why == "" {
		why = fmt.Sprintf("exit code %d", code)
	}
	if m := messageSet.FindStringSubmatch(why); m != nil {
		return nil, exitcode.BadInput("buf %s cannot check buf-input %s: buf cannot load %s, a MessageSet (a legacy proto1 wire format); "+
			"set the lint and breaking inputs to false to gate this module without buf's checks (wiregate skips the MessageSet and measures the rest)",
			args[0], c.BufInput, m[1])
	}
	return nil, exitcode.BadInput("buf %s failed on buf-input %s: %s", args[0], c.BufInput, why)
}

// messageSet is buf's failure on a module with a MessageSet: like
// protobuf-go, which it is built on, buf cannot load one, so it can neither
// lint nor compare the module.
var messageSet = regexp.MustCompile(`message "([^"]+)" is a MessageSet`)

// Annotation is one line of `buf lint|breaking --error-format=json`.
type Annotation struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	Type        string `json:"type"`
	Message     string `json:"message"`
}

// Parse reads buf's JSON lines; a line that is not an annotation is
// returned in other (buf printed an error of its own).
func Parse(stdout []byte) (annotations []Annotation, other []string) {
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var a Annotation
		if json.Unmarshal([]byte(line), &a) == nil && a.Type != "" {
			annotations = append(annotations, a)
		} else {
			other = append(other, line)
		}
	}
	return annotations, other
}

// CompileError is the one-line error for a schema that does not compile,
// or "" when every annotation is a real finding.
func CompileError(annotations []Annotation, fileRoot string) string {
	for _, a := range annotations {
		if a.Type != "COMPILE" {
			continue
		}
		where := RepoPath(fileRoot, a.Path)
		if a.StartLine > 0 {
			where += fmt.Sprintf(":%d", a.StartLine)
			if a.StartColumn > 0 {
				where += fmt.Sprintf(":%d", a.StartColumn)
			}
		}
		return where + ": " + a.Message + " (the schema does not compile; fix it and push again)"
	}
	return ""
}

// Findings maps annotations to report findings with repo-relative files.
func Findings(kind string, annotations []Annotation, fileRoot string) []report.Finding {
	out := make([]report.Finding, 0, len(annotations))
	for _, a := range annotations {
		out = append(out, report.Finding{Kind: kind, File: RepoPath(fileRoot, a.Path), Line: a.StartLine,
			Column: a.StartColumn, Rule: a.Type, Message: a.Message})
	}
	return out
}

// RepoPath joins buf's input-relative path to where the input sits in the repo.
func RepoPath(fileRoot, p string) string {
	if fileRoot == "" {
		fileRoot = "."
	}
	if p == "" {
		return path.Clean(fileRoot)
	}
	return path.Clean(path.Join(filepath.ToSlash(fileRoot), p))
}
