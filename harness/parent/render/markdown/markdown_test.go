package markdown

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/gfm"
)

func render(t *testing.T, source string) string {
	t.Helper()
	return gfm.HTML(t, source)
}

// inline is the HTML of one paragraph's content.
func inline(t *testing.T, source string) string {
	t.Helper()
	out := render(t, source)
	return strings.TrimSuffix(strings.TrimPrefix(out, "<p>"), "</p>\n")
}

var hostile = []string{
	"<script>alert(1)</script>",
	"<!-- hide the rest of the report",
	"**bold** _em_ __strong__ ~~strike~~ `code` ``two``",
	"[link](https://evil.example) ![img](https://evil.example/x.png) [ref]: https://evil.example",
	"<https://evil.example> https://evil.example www.evil.example",
	"@everyone @org/team mail@evil.example",
	"# heading",
	"- item",
	"1. item",
	"> quote",
	"+ item",
	`a\*b\ c\\`,
	"&lt; an entity &amp; &#60;",
	"FIELD_NO_DELETE snake_case _x_ x_",
	"$x^2$ and $$y$$",
	"line1\nline2\n\n## two\r\nthree",
	"<details><summary>x</summary>",
	":+1: #123 1) x",
	"a | b | c",
}

var entities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`)

func decode(html string) string { return strings.ReplaceAll(entities.Replace(html), "\u200b", "") }

var newlines = regexp.MustCompile(`[\r\n]+`)

func flat(s string) string { return newlines.ReplaceAllString(s, " ") }

func TestTextRendersAsExactlyItsTextOnOneLineWithNoElement(t *testing.T) {
	for _, s := range hostile {
		html := inline(t, Text(s).Source())
		if strings.Contains(html, "<") {
			t.Errorf("%q rendered an element: %s", s, html)
		}
		if got := decode(html); got != flat(s) {
			t.Errorf("%q rendered as %q", s, got)
		}
		if regexp.MustCompile(`@\w`).MatchString(html) {
			t.Errorf("%q: a mention would notify: %s", s, html)
		}
	}
}

func TestTextAtTheStartOfALineOrListItemStartsNoBlock(t *testing.T) {
	shape := regexp.MustCompile(`^(<ul>\n<li>[^<]*</li>\n</ul>|<p>[^<]*</p>)\n$`)
	for _, s := range hostile {
		// Interpolated where it opens a line, after a list marker, or alone.
		for _, m := range []Md{F("- {}", s), F("{}", s), Text(s), F("x\n{}", s)} {
			if html := render(t, m.Source()); !shape.MatchString(html) {
				t.Errorf("%q: %s", s, html)
			}
		}
	}
}

var codeElement = regexp.MustCompile(`^<code>([^<]*)</code>$`)

func TestCodeIsOneSpanHoldingExactlyItsString(t *testing.T) {
	for _, s := range append(append([]string(nil), hostile...), "a`b", "`edge`", "x```y", "``") {
		m := codeElement.FindStringSubmatch(inline(t, Code(s).Source()))
		if m == nil {
			t.Errorf("%q: %s", s, inline(t, Code(s).Source()))
			continue
		}
		if got := strings.TrimSpace(decode(m[1])); got != strings.TrimSpace(flat(s)) {
			t.Errorf("%q: span holds %q", s, got)
		}
	}
}

var cells = regexp.MustCompile(`(?s)<td>(.*?)</td>`)

func TestTableKeepsACodeSpanOrTextInItsCellPipesAndAll(t *testing.T) {
	for _, s := range hostile {
		for _, m := range []Md{Code(s), Text(s), F("{}", s)} {
			html := render(t, Table([]Md{F("a"), F("b")}, [][]Md{{m, F("end")}}).Source())
			got := cells.FindAllStringSubmatch(html, -1)
			if len(got) != 2 || got[1][1] != "end" {
				t.Errorf("%q: %s", s, html)
				continue
			}
			text := regexp.MustCompile(`</?code>`).ReplaceAllString(got[0][1], "")
			if strings.TrimSpace(decode(text)) != strings.TrimSpace(flat(s)) {
				t.Errorf("%q: cell holds %q", s, decode(text))
			}
		}
	}
}

func TestCodeBlockHoldsItsTextLiterallyAndNoLineClosesTheFence(t *testing.T) {
	body := "goos: linux\n```\n<script>alert(1)</script>\n</details>\n~~~"
	got := render(t, CodeBlock("text", body).Source()+"\n\nafter")
	shown := strings.NewReplacer("`", "\u02cb", "<", "&lt;", ">", "&gt;").Replace(body)
	if want := "<pre><code class=\"language-text\">" + shown + "\n</code></pre>\n<p>after</p>\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestMermaidLabelKeepsNamesAndDropsWhatWouldEndALabel(t *testing.T) {
	if got := MermaidLabel("telemetry.v1.TelemetryEvent"); got != "telemetry.v1.TelemetryEvent" {
		t.Error(got)
	}
	if got := MermaidLabel("a\"]\n%%{init}%%"); got != "a__ ___init___" {
		t.Error(got)
	}
	// A character outside the Basic Multilingual Plane is two UTF-16 units, as mermaid's JavaScript counts.
	if got := MermaidLabel("a🙂b"); got != "a__b" {
		t.Error(got)
	}
}

func TestFKeepsItsLiteralsAndEscapesEveryString(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{F("<sub>{}</sub>", "<b>x</b> @a").Source(), "<sub>&lt;b&gt;x&lt;/b&gt; \u200b@\u200ba</sub>"},
		// A value mid-line is not taken for a block start.
		{F("({}, {})", "-1", "# x").Source(), "(-1, # x)"},
		{F("{}", "# x").Source(), `\# x`},
		{F("> {}", "# x").Source(), `> \# x`},
		// An Md and a number go in as they are.
		{F("a {} {} {}", F("*b*"), 3, 0.05).Source(), "a *b* 3 0.05"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestNothingButTheBuilderMakesMarkdown(t *testing.T) {
	panics := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", name)
			}
		}()
		f()
	}
	panics("F with fewer arguments than placeholders", func() { F("{} {}", "a") })
	panics("F with a value that is no Md, string or number", func() { F("{}", []byte("<script>")) })
	if got := Numeral("-1,234.5").Source(); got != "-1,234.5" {
		t.Error(got)
	}
	for _, bad := range []string{"1<2", "[1](x)", "1 @a", ""} {
		panics("Numeral("+bad+")", func() { Numeral(bad) })
	}
}

func TestALinkIsMadeOnlyToAURLThatCannotBreakOutOfIt(t *testing.T) {
	if got := Link(F("run"), "https://github.com/o/r/actions/runs/9").Source(); got != "[run](https://github.com/o/r/actions/runs/9)" {
		t.Error(got)
	}
	for _, bad := range []string{"javascript:alert(1)", "https://x/(y)", "https://x y", "https://x\u00a0y", ""} {
		if got := Link(F("run"), bad).Source(); got != "run" {
			t.Errorf("%q: %s", bad, got)
		}
	}
	if got := CommentLink(F("@a"), "https://github.com/o/r/pull/1#issuecomment-7").Source(); got != "[@a](https://github.com/o/r/pull/1#issuecomment-7)" {
		t.Error(got)
	}
	if got := CommentLink(F("@a"), "https://evil.example/x").Source(); got != "@a" {
		t.Error(got)
	}
}

func TestLiteralTextHoldsNoHTMLCommentOpener(t *testing.T) {
	marker := "<!-- wiregate:wiregate/gate -->"
	for _, m := range []Md{Code(marker), CodeBlock("text", marker), Text(marker), HTMLCode(marker), HTMLText(marker)} {
		if strings.Contains(m.Source(), "<!--") {
			t.Error(m.Source())
		}
	}
	if got := strings.ReplaceAll(inline(t, Code(marker).Source()), "\u200b", ""); got != "<code>&lt;!-- wiregate:wiregate/gate --&gt;</code>" {
		t.Error(got)
	}
}

// TestAStringVariableIsNoFormat builds a package that passes a string
// variable as F's format: it must not compile, so untrusted text cannot
// become markdown unescaped (only an untyped constant is a format).
func TestAStringVariableIsNoFormat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	out, err := exec.Command("go", "build", "-o", os.DevNull, "./testdata/forged").CombinedOutput()
	if err == nil {
		t.Fatal("a string variable compiled as markdown.F's format")
	}
	if !strings.Contains(string(out), "cannot use untrusted (variable of type string) as markdown.literal value") {
		t.Fatalf("the build failed for another reason:\n%s", out)
	}
}
