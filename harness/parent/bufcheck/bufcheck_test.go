package bufcheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/internal/proctest"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

const deleted = `{"path":"schemas/orders/v1/order.proto","start_line":8,"start_column":1,"end_line":16,"end_column":2,"type":"FIELD_NO_DELETE","message":"Previously present field \"2\" was deleted."}` + "\n"

func TestFindingsAreRepoRelative(t *testing.T) {
	as, other := Parse([]byte(deleted + "\n"))
	if len(other) != 0 || len(as) != 1 {
		t.Fatalf("annotations %+v, other %v", as, other)
	}
	got := Findings(report.KindBreaking, as, "proto")
	want := report.Finding{Kind: "breaking", File: "proto/schemas/orders/v1/order.proto", Line: 8, Column: 1,
		Rule: "FIELD_NO_DELETE", Message: `Previously present field "2" was deleted.`}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("%+v", got)
	}
	for root, want := range map[string]string{".": "a/b.proto", "": "a/b.proto", "sub/./dir": "sub/dir/a/b.proto"} {
		if got := RepoPath(root, "a/b.proto"); got != want {
			t.Errorf("RepoPath(%q): %s, want %s", root, got, want)
		}
	}
}

func TestCompileErrorNamesFileLineColumn(t *testing.T) {
	as, _ := Parse([]byte(`{"path":"schemas/orders/v1/order.proto","start_line":17,"start_column":11,"type":"COMPILE","message":"encountered unmatched ` + "`{`" + ` delimiter"}`))
	msg := CompileError(as, ".")
	if !strings.HasPrefix(msg, "schemas/orders/v1/order.proto:17:11: encountered unmatched `{` delimiter") {
		t.Fatalf("%q", msg)
	}
	if as, _ := Parse([]byte(deleted)); CompileError(as, ".") != "" {
		t.Fatal("a finding is not a compile error")
	}
}

func TestNonJSONIsKeptApart(t *testing.T) {
	_, other := Parse([]byte("Failure: no .proto files were targeted.\n"))
	if len(other) != 1 || other[0] != "Failure: no .proto files were targeted." {
		t.Fatalf("%q", other)
	}
}

// module writes a buf module with one file into a fresh directory.
func module(t *testing.T, proto string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "buf.yaml"), "version: v2\nlint:\n  use: [STANDARD]\nbreaking:\n  use: [FILE]\n")
	write(t, filepath.Join(dir, "shop/v1/cart.proto"), proto)
	return dir
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

const cart = `syntax = "proto3";

package shop.v1;

// Cart is a shopping cart.
message Cart {
  string id = 1;
  int32 items = 2;
}
`

// check is buf run in dir with the buf.yaml there, as a module of its own.
func check(t *testing.T, dir string) Check {
	t.Helper()
	buf, err := prepare.FindBuf(context.Background(), "", "../..", "")
	if err != nil {
		t.Skip(err)
	}
	conf, err := os.ReadFile(filepath.Join(dir, "buf.yaml"))
	if err != nil {
		conf = []byte("version: v2\n")
	}
	return Check{Buf: buf, Dir: dir, Input: ".", FileRoot: "protos", Config: string(conf), Name: "the base"}
}

func TestRealBuf(t *testing.T) {
	ctx := context.Background()
	base := module(t, cart)
	if fs, err := check(t, base).Lint(ctx); err != nil || len(fs) != 0 {
		t.Fatalf("clean module: %+v %v", fs, err)
	}

	camel := module(t, strings.Replace(cart, "int32 items = 2;", "int32 itemCount = 2;", 1))
	fs, err := check(t, camel).Lint(ctx)
	if err != nil || len(fs) != 1 || fs[0].Rule != "FIELD_LOWER_SNAKE_CASE" || fs[0].File != "protos/shop/v1/cart.proto" || fs[0].Line != 8 {
		t.Fatalf("lint: %+v %v", fs, err)
	}

	renumbered := module(t, strings.Replace(cart, "int32 items = 2;", "int32 items = 3;", 1))
	fs, err = check(t, renumbered).Breaking(ctx, check(t, base))
	if err != nil || len(fs) == 0 || fs[0].Kind != report.KindBreaking || fs[0].File != "protos/shop/v1/cart.proto" {
		t.Fatalf("breaking: %+v %v", fs, err)
	}

	broken := module(t, strings.Replace(cart, "int32 items = 2;", "int32 items = 2", 1))
	_, err = check(t, broken).Lint(ctx)
	if err == nil || exitcode.Code(err) != exitcode.Unusable || !strings.HasPrefix(err.Error(), "protos/shop/v1/cart.proto:9:1: ") ||
		strings.Contains(err.Error(), "\n") {
		t.Fatalf("compile error: %v", err)
	}

	// A base that does not compile is one line naming it.
	_, err = check(t, renumbered).Breaking(ctx, check(t, broken))
	if exitcode.Code(err) != exitcode.Unusable || !strings.HasPrefix(err.Error(), "buf breaking cannot read the base: buf build of protos failed: ") ||
		strings.Contains(err.Error(), "\n") {
		t.Fatalf("base does not compile: %v", err)
	}
}

// buf cannot load a MessageSet, so it can check nothing of a module with
// one: one line naming the message and what to set.
func TestMessageSetSaysBufCannotCheckTheModule(t *testing.T) {
	dir := module(t, `syntax = "proto2";

package shop.v1;

// Bag is a MessageSet.
message Bag {
  option message_set_wire_format = true;
  extensions 4 to max;
}
`)
	other := module(t, cart)
	for name, run := range map[string]func() ([]report.Finding, error){
		"lint":     func() ([]report.Finding, error) { return check(t, dir).Lint(context.Background()) },
		"breaking": func() ([]report.Finding, error) { return check(t, dir).Breaking(context.Background(), check(t, other)) },
	} {
		_, err := run()
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "buf "+name+" cannot check buf-input protos: buf cannot load shop.v1.Bag, a MessageSet") ||
			!strings.Contains(err.Error(), "set the lint and breaking inputs to false") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// npmBuf is buf as `npm ci` installs it: a node launcher that runs the buf
// binary as its child, the process tree a cancel must take down whole.
func npmBuf(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "node_modules", ".bin", "buf"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%v: run `npm ci` at the repository root", err)
	}
	return p
}

// isBufBinary is the buf binary itself, not its node launcher.
func isBufBinary(p proctest.Process) bool {
	argv0, _, _ := strings.Cut(p.Cmdline, " ")
	return filepath.Base(argv0) == "buf" && strings.Contains(p.Cmdline, " breaking ")
}

// bigModule is a module buf takes seconds to compare (2,400 messages).
func bigModule(t *testing.T) string {
	t.Helper()
	dir := module(t, cart)
	for f := range 60 {
		var b strings.Builder
		fmt.Fprintf(&b, "syntax = \"proto3\";\n\npackage big.v1;\n")
		for m := range 40 {
			fmt.Fprintf(&b, "\n// M%d_%d is a message.\nmessage M%d_%d {\n", f, m, f, m)
			for i := 1; i <= 30; i++ {
				fmt.Fprintf(&b, "  string field_%d = %d;\n", i, i)
			}
			b.WriteString("}\n")
		}
		write(t, filepath.Join(dir, "big", "v1", fmt.Sprintf("f%d.proto", f)), b.String())
	}
	return dir
}

// Cancelling the gate during buf breaking (a cancelled job, Ctrl-C) stops
// buf's whole process tree, the launcher and the binary it runs: Breaking
// returns the cancel's cause at once (it used to wait for the binary to
// finish) and nothing is left running.
func TestCancelledBreakingLeavesNoProcess(t *testing.T) {
	head := bigModule(t)
	c := Check{Buf: npmBuf(t), Dir: head, Input: ".", FileRoot: "protos", Config: "version: v2\n", Name: "the base"}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	done := make(chan error, 1)
	go func() {
		_, err := c.Breaking(ctx, c)
		done <- err
	}()
	ps, seen := proctest.WaitFor(30*time.Second, isBufBinary)
	if !seen {
		t.Fatalf("buf breaking never ran: %+v", ps)
	}
	time.Sleep(200 * time.Millisecond) // well into its work
	cause := errors.New("interrupted by the test")
	took, err := proctest.Cancel(t, func() { cancel(cause) }, done)
	t.Logf("cancelled %d processes in %s: %v", len(ps), took.Round(time.Millisecond), err)
	if !errors.Is(err, cause) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "buf breaking: ") {
		t.Errorf("error %v, want one line with the cause", err)
	}
	if took > 2*time.Second {
		t.Errorf("Breaking returned %s after the cancel, want at once", took)
	}
	if len(ps) < 2 {
		t.Errorf("want the launcher and the binary, got %+v", ps)
	}
	time.Sleep(100 * time.Millisecond) // a SIGKILL may land just after Wait returned
	proctest.NoneLeft(t, ps)
}
