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

// Check says where buf runs, with which config, and how its paths map
// into the repository.
type Check struct {
	Buf string // the buf binary
	// Dir is where buf runs: the directory of the config (Config.Dir), so
	// buf reads buf.lock and resolves a plugin's path from there.
	Dir   string
	Input string // buf-input relative to Dir
	// FileRoot is Dir, repository-relative: buf names files from Dir.
	FileRoot string
	// Config is the buf.yaml buf runs with (--config): always given, so
	// buf never searches for one.
	Config string
	// Name says which side this is in an error ("the base", "release v1").
	Name string
}

// CheckOf is buf run on a side where config c says, with doc as its
// buf.yaml (c's own, vetted, or judged).
func CheckOf(buf string, c Config, doc map[string]any, name string) (Check, error) {
	c.Doc = doc
	text, err := c.Text()
	if err != nil {
		return Check{}, err
	}
	return Check{Buf: buf, Dir: c.Dir, Input: c.Input, FileRoot: c.RepoDir, Config: text, Name: name}, nil
}

// Lint runs buf lint.
func (c Check) Lint(ctx context.Context) ([]report.Finding, error) {
	return c.findings(ctx, report.KindLint, "lint", c.Input, "--error-format=json")
}

// Breaking runs buf breaking against the side against checks (the base,
// or a release): buf builds against's image with against's own config
// first, so neither side's config is searched for.
func (c Check) Breaking(ctx context.Context, against Check) ([]report.Finding, error) {
	image, remove, err := against.Image(ctx)
	if err != nil {
		return nil, err
	}
	defer remove()
	return c.BreakingImage(ctx, image)
}

// BreakingImage runs buf breaking against an image Image built: one
// image answers several checks (the base's rules and head's own).
func (c Check) BreakingImage(ctx context.Context, image string) ([]report.Finding, error) {
	return c.findings(ctx, report.KindBreaking, "breaking", c.Input, "--against", image, "--error-format=json")
}

// Image builds the side's image into a directory of its own, and says how
// to remove it.
func (c Check) Image(ctx context.Context) (image string, remove func(), err error) {
	tmp, err := os.MkdirTemp("", "wiregate-against-")
	if err != nil {
		return "", nil, fmt.Errorf("buf breaking: %w", err)
	}
	remove = func() { os.RemoveAll(tmp) }
	image = filepath.Join(tmp, "against.binpb")
	if err := c.build(ctx, image); err != nil {
		remove()
		return "", nil, err
	}
	return image, remove, nil
}

// build writes the side's image (its files and imports) to out.
func (c Check) build(ctx context.Context, out string) error {
	if c.Config == "" {
		return fmt.Errorf("buf build of %s: no config given", c.Name)
	}
	cmd := proc.Command(ctx, c.Buf, "build", c.Input, "--config="+c.Config, "-o", out)
	cmd.Dir = c.Dir
	if _, err := cmd.Output(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("buf build: %w", context.Cause(ctx))
		}
		return exitcode.BadInput("buf breaking cannot read %s: buf build of %s failed: %s", c.Name, RepoPath(c.FileRoot, c.Input),
			firstOr(cmd.Captured().FirstLine(), err.Error()))
	}
	return nil
}

// exitFindings is buf's exit code when it ran and found something.
const exitFindings = 100

func (c Check) findings(ctx context.Context, kind string, args ...string) ([]report.Finding, error) {
	if _, err := os.Stat(filepath.Join(c.Dir, c.Input)); err != nil {
		return nil, exitcode.BadInput("buf-input %s does not exist in %s", RepoPath(c.FileRoot, c.Input), c.Dir)
	}
	if c.Config == "" {
		return nil, fmt.Errorf("buf %s: no config given", args[0])
	}
	args = append(args, "--config="+c.Config)
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
			args[0], RepoPath(c.FileRoot, c.Input), m[1])
	}
	return nil, exitcode.BadInput("buf %s failed on buf-input %s: %s", args[0], RepoPath(c.FileRoot, c.Input), why)
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
