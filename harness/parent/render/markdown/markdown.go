// Package markdown is the one way text reaches a report's markdown. An Md
// is markdown, and only this package makes one: from the renderer's own
// literals (F), from numbers, or by escaping a string for the place it
// goes (inline text, a code span, a code block, a table cell, a mermaid
// label). Every string is untrusted here — a report.json field, a
// schema's field name, an error line — so there is no way to mark one
// trusted: F's format is of an unexported type that only an untyped
// constant converts to, so a string variable passed as a format does not
// compile, and a string passed as an argument is escaped as inline text.
//
// In publish mode report.json comes from an artifact a fork PR's code
// wrote, and in gate mode a PR names files, messages and fields: a string
// must render as the text it is — no HTML (an unclosed `<!--` would hide
// the rest of the report), no links, images or mentions, no markdown
// structure, one line, and no second sticky marker.
package markdown

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Md is markdown that is safe by construction. The zero Md is empty.
type Md struct{ source string }

// Source is the markdown, to write out (never to build more markdown from).
func (m Md) Source() string { return m.source }

// Len is the markdown's length in UTF-16 code units: what a GitHub
// comment's limit counts (never fewer than its characters).
func (m Md) Len() int { return UTF16Len(m.source) }

// Empty says whether the markdown is "".
func (m Md) Empty() bool { return m.source == "" }

// Empty is no markdown.
var Empty = Md{}

// literal is the type of F's format: an untyped string constant (the
// renderer's own markdown) converts to it, a string variable does not.
type literal string

// placeholder marks where F puts its next argument.
const placeholder = "{}"

// F is the template: its format is the renderer's own markdown, each {}
// in it takes the next argument — an Md as it is, a string escaped as
// inline text (a block start escaped too where the string opens a line),
// a number as its digits (as JavaScript's String(n) writes it).
func F(format literal, args ...any) Md {
	parts := strings.Split(string(format), placeholder)
	if len(parts) != len(args)+1 {
		panic(fmt.Sprintf("markdown.F: %d placeholders, %d arguments in %q", len(parts)-1, len(args), format))
	}
	var out strings.Builder
	out.WriteString(parts[0])
	for i, a := range args {
		switch v := a.(type) {
		case Md:
			out.WriteString(v.source)
		case string:
			out.WriteString(escape(v, opensLine(out.String())))
		case int:
			out.WriteString(strconv.Itoa(v))
		case int64:
			out.WriteString(strconv.FormatInt(v, 10))
		case float64:
			out.WriteString(NumberString(v))
		default:
			panic(fmt.Sprintf("markdown.F: argument %d is a %T, not Md, string or number", i, a))
		}
		out.WriteString(parts[i+1])
	}
	return Md{out.String()}
}

// lineOpeners is a line's start that is empty or only list and quote
// markers: a `#` after it is a heading.
var lineOpeners = regexp.MustCompile(`^[ \t]*(?:(?:[-*+>]|\d{1,9}[.)])[ \t]+)*$`)

// opensLine is true when what follows out starts a line, or follows only
// list or quote markers on it. Where out has no line yet the caller's
// context is unknown: true, to escape too much rather than too little.
func opensLine(out string) bool {
	return lineOpeners.MatchString(out[strings.LastIndexByte(out, '\n')+1:])
}

// Text is a string as inert inline markdown.
func Text(s string) Md { return Md{escape(s, true)} }

var (
	markdownPunct = regexp.MustCompile("[\\\\`*\\[\\]~$]")
	bareLink      = regexp.MustCompile(`(?i)\b(https?|ftp)://`)
	bareWWW       = regexp.MustCompile(`(?i)\bwww\.`)
	blockStart    = regexp.MustCompile(`^[#+=-]`)
	orderedStart  = regexp.MustCompile(`^(\d+)([.)])`)
	htmlSpecial   = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

// escape makes a string inert inline markdown: HTML special characters as
// entities; the punctuation that opens emphasis, code, links, images and
// math backslash-escaped (an `_` inside a word opens nothing, so
// FIELD_NO_DELETE stays as it is); a list, heading or setext start escaped
// where the text opens a line; mentions, e-mail addresses and bare links
// broken with zero-width spaces; one line. Pipes are left to Table, which
// escapes a whole cell.
func escape(s string, lineStart bool) string {
	out := markdownPunct.ReplaceAllString(oneLine(s), `\$0`)
	out = escapeUnderscores(out)
	out = htmlSpecial.Replace(out)
	out = unlinked(out)
	if lineStart {
		out = blockStart.ReplaceAllString(out, `\$0`)
		out = orderedStart.ReplaceAllString(out, `$1\$2`)
	}
	return out
}

// unlinked breaks mentions, e-mail addresses and bare links with
// zero-width spaces.
func unlinked(s string) string {
	s = strings.ReplaceAll(s, "@", "\u200b@\u200b")
	s = bareLink.ReplaceAllString(s, "$1:/\u200b/")
	return bareWWW.ReplaceAllString(s, "www\u200b.")
}

// escapeUnderscores escapes each `_` that could open or close emphasis:
// one not between two letters or digits.
func escapeUnderscores(s string) string {
	alnum := func(i int) bool {
		if i < 0 || i >= len(s) {
			return false
		}
		c := s[i]
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' && (!alnum(i-1) || !alnum(i+1)) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

var backtickRuns = regexp.MustCompile("`+")

// Code is a string as an inline code span: its content is literal (no
// HTML, no markdown, no mentions), delimited by more backticks than any
// run in it.
func Code(s string) Md {
	line := unmarked(oneLine(s))
	longest := 0
	for _, run := range backtickRuns.FindAllString(line, -1) {
		longest = max(longest, len(run))
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if strings.HasPrefix(line, "`") || strings.HasSuffix(line, "`") || line == "" {
		pad = " "
	}
	return Md{fence + pad + line + pad + fence}
}

// HTMLCode is a string as an HTML code element, for where markdown is not
// read (a <summary> line is raw HTML): HTML special characters as
// entities, mentions and bare links broken as escape breaks them, one line.
func HTMLCode(s string) Md { return Md{"<code>" + htmlInline(s) + "</code>"} }

// HTMLText is a string as inert text inside raw HTML (a <summary>).
func HTMLText(s string) Md { return Md{htmlInline(s)} }

func htmlInline(s string) string {
	out := htmlSpecial.Replace(unmarked(oneLine(s)))
	return unlinked(strings.ReplaceAll(out, `"`, "&quot;"))
}

// CodeBlock is multi-line text as a fenced block. Backticks in it become
// ˋ (U+02CB), so no line of it can close the fence or look like one to the
// budget's cut; the block is literal otherwise.
func CodeBlock(info literal, body string) Md {
	return Md{"```" + string(info) + "\n" + TrimEnd(unmarked(strings.ReplaceAll(body, "`", "\u02cb"))) + "\n```"}
}

// unmarked keeps literal text from holding an HTML comment opener: shown
// the same (a zero-width space after `<!`), but no `<!-- wiregate:…` in a
// code span can pass for a second sticky marker in the comment's source.
func unmarked(s string) string { return strings.ReplaceAll(s, "<!--", "<!\u200b--") }

var numeralShape = regexp.MustCompile(`^[-+]?(?:\d[\d,]*(?:\.\d*)?(?:e[-+]?\d+)?|Infinity|NaN)$`)

// Numeral is a number the renderer formatted (fixed decimals, thousands
// separators) as markdown: only digits, a sign, a point, commas and an
// exponent, which no markdown reads as anything but text. Anything else is
// the renderer's bug: it panics.
func Numeral(s string) Md {
	if !numeralShape.MatchString(s) {
		panic(fmt.Sprintf("numeral: %q is not a number", s))
	}
	return Md{s}
}

// Join puts parts one after another with sep between them, dropping empty ones.
func Join(parts []Md, sep Md) Md {
	var kept []string
	for _, p := range parts {
		if p.source != "" {
			kept = append(kept, p.source)
		}
	}
	return Md{strings.Join(kept, sep.source)}
}

// Blocks joins block-level parts with a blank line, dropping empty ones.
func Blocks(parts ...Md) Md { return Join(parts, Md{"\n\n"}) }

var cellBreak = regexp.MustCompile(`\r?\n`)

// Table is a GFM table: each cell one line with its pipes escaped (also
// inside code spans, as GFM tables require).
func Table(header []Md, rows [][]Md) Md {
	row := func(cells []Md) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = cellBreak.ReplaceAllString(strings.ReplaceAll(c.source, "|", `\|`), " ")
		}
		return "| " + strings.Join(out, " | ") + " |"
	}
	lines := []string{row(header), "|" + strings.Repeat("---|", len(header))}
	for _, r := range rows {
		lines = append(lines, row(r))
	}
	return Md{strings.Join(lines, "\n")}
}

// Details is a collapsed section: summary shown, body folded.
func Details(summary, body Md) Md {
	return F("<details><summary>{}</summary>\n\n{}\n\n</details>", summary, body)
}

// JSSpace is the characters JavaScript's \s matches, as a character
// class's contents: a URL holding one is not linked.
const JSSpace = "\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}"

var (
	linkable    = regexp.MustCompile("^https?://[^" + JSSpace + "()<>\\[\\]\"'`\\\\]+$")
	commentURLs = regexp.MustCompile(`^https://[A-Za-z0-9.-]+/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/pull/\d+#issuecomment-\d+$`)
)

// Link is a markdown link to a URL wiregate itself was given (the run's
// page); anything else that could break out of the link is shown as the
// label alone.
func Link(label Md, url string) Md {
	if url != "" && linkable.MatchString(url) {
		return Md{"[" + label.source + "](" + url + ")"}
	}
	return label
}

// CommentLink links label to a pull request comment, and to nothing else:
// an approval's URL comes from report.json, so only a GitHub comment URL
// (…/pull/N#issuecomment-ID) is linked.
func CommentLink(label Md, url string) Md {
	if commentURLs.MatchString(url) {
		return Link(label, url)
	}
	return label
}

var lineBreaks = regexp.MustCompile("[\r\n\u2028\u2029]+")

func oneLine(s string) string { return lineBreaks.ReplaceAllString(s, " ") }
