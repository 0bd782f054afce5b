package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wiregate/wiregate/harness/parent/ci"
	"github.com/wiregate/wiregate/harness/parent/render"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// readReport reads a report.json (a part, a report to decide again or to
// render) and checks it against the contract; "-" reads stdin.
func readReport(path string) (*report.Report, error) {
	var b []byte
	var err error
	if path == "-" {
		path = "report.json on stdin"
		b, err = io.ReadAll(os.Stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, exitcode.BadInput("%s: no such file; pass a report.json that wiregate gate, merge or approve wrote", path)
	} else if err != nil {
		return nil, exitcode.BadInput("%s: %v", path, err)
	}
	return parseReport(path, b)
}

// parseReport is report.json's text as a report, checked against the
// contract: one line names the file and where it breaks it.
func parseReport(path string, b []byte) (*report.Report, error) {
	var v struct{ Version int }
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, exitcode.BadInput("%s: not a wiregate report.json: %v", path, err)
	}
	if v.Version != report.Version {
		return nil, exitcode.BadInput("%s: report version %d, this wiregate reads %d: use the wiregate that wrote it", path, v.Version, report.Version)
	}
	if err := report.Validate(b); err != nil {
		return nil, exitcode.BadInput("%s %v", path, err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, exitcode.BadInput("%s: not a wiregate report.json: %v", path, err)
	}
	return &r, nil
}

// writeReport writes r as out/report.json and out/report.md, the markdown
// linking the CI run at runURL.
func writeReport(r *report.Report, out, runURL string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return exitcode.BadInput("--out %s: %v", out, err)
	}
	if err := r.Write(filepath.Join(out, "report.json")); err != nil {
		return err
	}
	_, err := writeMarkdown(r, out, renderContext(runURL))
	return err
}

// writeMarkdown writes r as out/report.md, rendered for ctx: the whole
// report, as the job summary and the comment show it when they have room.
// It returns the markdown.
func writeMarkdown(r *report.Report, out string, ctx render.Context) (string, error) {
	text := render.Report(r, ctx)
	if err := os.WriteFile(filepath.Join(out, "report.md"), []byte(text), 0o644); err != nil {
		return text, fmt.Errorf("write report.md: %w", err)
	}
	return text, nil
}

// runURLFlag defines --run-url on fs: the CI run a report links.
func runURLFlag(fs *flag.FlagSet) *string {
	return fs.String("run-url", "", "the CI run's page, linked from the report (default: the CI's own, from its variables)")
}

// renderContext is what a report is rendered for: the CI run at runURL,
// by default the one wiregate runs in (from the CI's variables).
func renderContext(runURL string) render.Context {
	run := ci.Of(os.Getenv)
	if runURL == "" {
		runURL = run.URL
	}
	return render.Context{RunURL: runURL, Whole: run.Whole}
}

// Formats wiregate prints a report in (--format).
const formatNames = "markdown (report.md), json (report.json) or github (GitHub Actions workflow commands: an annotation per file finding, then the verdict)"

// formats are the formats of formatNames by name, each rendering a report
// for a context.
var formats = map[string]func(*report.Report, render.Context) (string, error){
	"markdown": func(r *report.Report, ctx render.Context) (string, error) { return render.Report(r, ctx), nil },
	"json":     jsonReport,
	"github":   func(r *report.Report, _ render.Context) (string, error) { return render.GitHub(r), nil },
}

// checkFormat is nil for a --format in formats, else one line naming them.
func checkFormat(format string) error {
	if _, ok := formats[format]; !ok {
		return exitcode.BadInput("--format %q: want %s", format, formatNames)
	}
	return nil
}

// jsonReport is r as report.json holds it.
func jsonReport(r *report.Report, _ render.Context) (string, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode report: %w", err)
	}
	return string(b) + "\n", nil
}
