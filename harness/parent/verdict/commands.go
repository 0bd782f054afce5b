package verdict

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// command is one /wiregate line of a plain paragraph: the action and what
// follows it.
var command = regexp.MustCompile(`(?im)^[ \t]*/wiregate[ \t]+(approve|revoke)\b(.*)$`)

// markdown is CommonMark as GitHub renders a comment's blocks.
var markdown = goldmark.New()

// commandLines are the /wiregate commands of a comment body, each as the
// action and the rest of its line. A command counts only as a plain line
// of a paragraph at the top of the comment: a maintainer showing how to
// approve in a fenced or indented code block, in an inline code span, in
// a quote or in a list approves nothing. The body is parsed as CommonMark,
// so what counts is what GitHub shows as a plain line.
func commandLines(body string) [][2]string {
	src := []byte(body)
	doc := markdown.Parser().Parse(text.NewReader(src))
	var out [][2]string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() != ast.KindParagraph {
			continue
		}
		for _, m := range command.FindAllStringSubmatch(plainText(n, src), -1) {
			out = append(out, [2]string{strings.ToLower(m[1]), m[2]})
		}
	}
	return out
}

// codeMark stands for a code span's backticks in plainText.
const codeMark = "\x00"

// plainText is a paragraph's text as lines, its code spans marked and
// without raw HTML: what a command may be read from.
func plainText(p ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(p, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.CodeSpan:
			// A code span is shown as code, never a command: marked with
			// NULs, "/wiregate approve `wg-3f9a2c`" names no id, and a
			// reason keeps it (codeMark).
			b.WriteString(codeMark)
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if s, ok := c.(*ast.Text); ok {
					b.Write(s.Value(src))
				}
			}
			b.WriteString(codeMark)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(t.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// Held is what one comment holds for wiregate: how many commands, and why
// its author may not give them ("" when they may).
type Held struct {
	ID       int64  `json:"id"`
	Author   string `json:"author"`
	Commands int    `json:"commands"`
	Refused  string `json:"refused,omitempty"`
}

// HeldCommands reads each of a's comments as the verdict does: the one
// reading of command words, so the action never filters a comment by its
// own (an edit that drops a command, an upper-case /WireGate revoke).
func HeldCommands(a report.Approvals, cfg config.Config) []Held {
	rules := &report.Rules{Config: cfg, Approvals: a}
	held := make([]Held, 0, len(a.Comments))
	for _, c := range a.Comments {
		h := Held{ID: c.ID, Author: c.Author, Commands: len(commandLines(c.Body))}
		if h.Commands > 0 {
			h.Refused = refusal(rules, cfg, c.Author)
		}
		held = append(held, h)
	}
	return held
}

// WithCommands are the comments that hold a command: the rules keep only
// those (every other comment says nothing to wiregate).
func WithCommands(cs []report.Comment) []report.Comment {
	var out []report.Comment
	for _, c := range cs {
		if len(commandLines(c.Body)) > 0 {
			out = append(out, c)
		}
	}
	return out
}
