package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"

	"github.com/wiregate/wiregate/harness/parent/render"
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("render", "write a report.json as markdown (the whole report, a job summary, a pull request comment) or as GitHub workflow commands", cmdRender)
}

func cmdRender(_ context.Context, args []string) error { return renderTo(os.Stdout, args) }

// renderTo writes what --as asks for to stdout, or to -o.
func renderTo(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	in := fs.String("report", "", "report.json to render (- reads stdin)")
	as := fs.String("as", "markdown", "markdown (report.md, whole), summary (within a job summary's 1 MiB), comment (within a comment's 65,536 characters, its sticky marker the first line), json, or github (workflow commands: an annotation per file finding, then the verdict)")
	runURL := runURLFlag(fs)
	workflow := fs.String("workflow", "wiregate", "comment: the gating workflow's name, the first half of the sticky marker")
	job := fs.String("job", "gate", "comment: the gating job's id, the second half of the sticky marker")
	untrusted := fs.String("untrusted", "", `comment: {"why": "…", "files": […]} or {"why": "…", "unread": "…"}: the report cannot be vouched for, and the comment leads with why`)
	refused := fs.String("refused", "", "comment: why the report was refused; the comment says so, and no --report is read")
	runID := fs.Int64("run-id", 0, "with --refused: the gating run's id")
	out := fs.String("o", "", "write to this file instead of stdout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	text, err := rendered(*in, *as, *runURL, *workflow, *job, *untrusted, *refused, *runID)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		return exitcode.BadInput("-o %s: %v", *out, err)
	}
	return nil
}

// rendered is the text render writes.
func rendered(in, as, runURL, workflow, job, untrusted, refused string, runID int64) (string, error) {
	format, ok := formats[as]
	if !ok && as != "summary" && as != "comment" {
		return "", exitcode.BadInput("--as %q: want markdown, summary, comment, json or github", as)
	}
	ctx := renderContext(runURL)
	marker := render.StickyMarker(workflow, job)
	if refused != "" {
		if as != "comment" {
			return "", exitcode.BadInput("--refused is a comment's: pass --as comment")
		}
		return render.Comment(marker, []render.Part{{Md: render.Refusal(runID, ctx.RunURL, refused)}}, ctx), nil
	}
	if in == "" {
		return "", exitcode.BadInput("want --report report.json (or - for stdin); run `wiregate render -h`")
	}
	r, err := readReport(in)
	if err != nil {
		return "", err
	}
	switch as {
	case "summary":
		return render.Summary(r, ctx), nil
	case "comment":
		lead := md.Empty
		if untrusted != "" {
			var u render.Untrusted
			if err := json.Unmarshal([]byte(untrusted), &u); err != nil || u.Why == "" || (len(u.Files) == 0) == (u.Unread == "") {
				return "", exitcode.BadInput(`--untrusted: want {"why": "…", "files": […]} or {"why": "…", "unread": "…"}`)
			}
			lead = render.UntrustedNotice(u)
		}
		return render.ReportComment(marker, r, ctx, lead), nil
	}
	return format(r, ctx)
}
