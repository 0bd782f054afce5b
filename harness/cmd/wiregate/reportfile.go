package main

import (
	"encoding/json"
	"errors"
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
	return writeMarkdown(r, out, runURL)
}

// writeMarkdown writes r as out/report.md: the whole report, as the job
// summary and the comment show it when they have room.
func writeMarkdown(r *report.Report, out, runURL string) error {
	if err := os.WriteFile(filepath.Join(out, "report.md"), []byte(render.Report(r, renderContext(runURL))), 0o644); err != nil {
		return fmt.Errorf("write report.md: %w", err)
	}
	return nil
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

// formatReport is r in format: markdown, json or github.
func formatReport(r *report.Report, format, runURL string) (string, error) {
	switch format {
	case "markdown":
		return render.Report(r, renderContext(runURL)), nil
	case "json":
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return "", fmt.Errorf("encode report: %w", err)
		}
		return string(b) + "\n", nil
	case "github":
		return render.GitHub(r), nil
	}
	return "", exitcode.BadInput("--format %q: want %s", format, formatNames)
}
