package bufcheck

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// judge resolves buf-input "proto" on both checkouts and judges head by
// the base's rules.
func judge(t *testing.T, base, head string) Judged {
	t.Helper()
	buf := bufBinary(t)
	h, err := Resolve(context.Background(), buf, head, head, "proto")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Resolve(context.Background(), buf, base, base, "proto")
	if err != nil {
		t.Fatal(err)
	}
	j, err := Judge(context.Background(), buf, h, b)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// runCheck is buf on head with the judged config (or, own, head's own).
func runCheck(t *testing.T, c Config, doc map[string]any) Check {
	t.Helper()
	chk, err := CheckOf(bufBinary(t), c, doc, "head")
	if err != nil {
		t.Fatal(err)
	}
	return chk
}

const v2Root = "version: v2\nmodules:\n  - path: proto\n"

// A pull request that deletes a field and excepts FIELD_NO_DELETE in its
// own buf.yaml is judged by the base's breaking rules: the real buf finds
// the deletion with them, not with head's; the change is one line.
func TestAPullRequestIsJudgedByTheBaseRules(t *testing.T) {
	rules := "breaking:\n  use: [FILE]\n"
	base := files(t, map[string]string{"buf.yaml": v2Root + rules, "proto/shop/v1/cart.proto": cart})
	head := files(t, map[string]string{"buf.yaml": v2Root + rules + "  except: [FIELD_NO_DELETE]\n",
		"proto/shop/v1/cart.proto": strings.Replace(cart, "  int32 items = 2;\n", "", 1)})
	j := judge(t, base, head)
	want := "buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged)"
	if j.Change == nil || j.Change.Line() != want {
		t.Fatalf("change %+v, want %q", j.Change, want)
	}
	if got := strings.Join(j.From, "; "); got != "the base's buf.yaml" {
		t.Fatalf("from %q", got)
	}
	against := runCheck(t, Config{Dir: base, Input: "proto"}, mustYAML(t, v2Root+rules))
	fs, err := runCheck(t, j.Config, j.Config.Doc).Breaking(context.Background(), against)
	if err != nil || len(fs) != 1 || fs[0].Rule != "FIELD_NO_DELETE" {
		t.Fatalf("judged by the base's rules: %+v %v", fs, err)
	}
	own, err := Resolve(context.Background(), bufBinary(t), head, head, "proto")
	if err != nil {
		t.Fatal(err)
	}
	if fs, err := runCheck(t, own, own.Doc).Breaking(context.Background(), against); err != nil || len(fs) != 0 {
		t.Fatalf("head's own rules should find nothing, so the check above shows something: %+v %v", fs, err)
	}

	// A/A: the same rules on both sides change nothing.
	if j := judge(t, base, base); j.Change != nil {
		t.Fatalf("A/A: %+v", j.Change)
	}
}

// A v1 base under a v2 head: the base's rules as `buf config migrate`
// translates them, comment ignores included: a `// buf:lint:ignore` head
// adds does not count where the base's v1 rules do not allow it.
func TestAV1BaseJudgesAV2HeadAsMigrated(t *testing.T) {
	bad := strings.Replace(cart, "  int32 items = 2;", "  // buf:lint:ignore FIELD_LOWER_SNAKE_CASE\n  int32 Items = 2;", 1)
	base := files(t, map[string]string{"proto/buf.yaml": "version: v1\nlint:\n  use: [DEFAULT]\n  ignore: [shop/v1/legacy.proto]\n",
		"proto/shop/v1/cart.proto": cart})
	head := files(t, map[string]string{"proto/buf.yaml": "version: v1\n", "buf.yaml": v2Root, "proto/shop/v1/cart.proto": bad})
	j := judge(t, base, head)
	if got := strings.Join(j.From, "; "); got != "the base's proto/buf.yaml (v1), as `buf config migrate` translates it" {
		t.Fatalf("from %q", got)
	}
	lint, _ := effective(j.Config.Doc, "proto", "lint").(map[string]any)
	if lint["disallow_comment_ignores"] != true || !reflect.DeepEqual(lint["ignore"], []any{"proto/shop/v1/legacy.proto"}) {
		t.Fatalf("the base's lint as head's workspace reads it: %v", lint)
	}
	if j.Change == nil || !strings.Contains(j.Change.Line(), "no longer disallow_comment_ignores: true") {
		t.Fatalf("change %+v", j.Change)
	}
	fs, err := runCheck(t, j.Config, j.Config.Doc).Lint(context.Background())
	if err != nil || len(fs) != 1 || fs[0].Rule != "FIELD_LOWER_SNAKE_CASE" || fs[0].File != "proto/shop/v1/cart.proto" {
		t.Fatalf("the ignore comment head added counted: %+v %v", fs, err)
	}
	own, _ := Resolve(context.Background(), bufBinary(t), head, head, "proto")
	if fs, err := runCheck(t, own, own.Doc).Lint(context.Background()); err != nil || len(fs) != 0 {
		t.Fatalf("head's own rules honour the comment, so the check above shows something: %+v %v", fs, err)
	}
}

// A base without a buf config judges by buf's defaults for head's version.
func TestABaseWithoutConfigJudgesByBufsDefaults(t *testing.T) {
	base := files(t, map[string]string{"proto/shop/v1/cart.proto": cart})
	head := files(t, map[string]string{"buf.yaml": v2Root + "lint:\n  except: [FIELD_LOWER_SNAKE_CASE]\n",
		"proto/shop/v1/cart.proto": strings.Replace(cart, "int32 items", "int32 Items", 1)})
	j := judge(t, base, head)
	if got := strings.Join(j.From, "; "); got != "buf's defaults (the base has no buf config)" {
		t.Fatalf("from %q", got)
	}
	if j.Change == nil || j.Change.Line() != "buf.yaml loosens lint: `except: FIELD_LOWER_SNAKE_CASE` (judged by the base's rules; applies once merged)" {
		t.Fatalf("change %+v", j.Change)
	}
	fs, err := runCheck(t, j.Config, j.Config.Doc).Lint(context.Background())
	if err != nil || len(fs) != 1 || fs[0].Rule != "FIELD_LOWER_SNAKE_CASE" {
		t.Fatalf("%+v %v", fs, err)
	}
}

// Per-module sections map by their module's path, whatever the order or
// the layout; a module the base lacks takes the base's workspace-wide
// rules; plugins and policies are the base's too.
func TestRulesMapByModulePath(t *testing.T) {
	base := files(t, map[string]string{"buf.yaml": "version: v2\nmodules:\n  - path: proto\n    lint:\n      except: [ENUM_ZERO_VALUE_SUFFIX]\n" +
		"lint:\n  use: [MINIMAL]\nplugins:\n  - plugin: buf.build/acme/rules\n"})
	head := files(t, map[string]string{"buf.yaml": "version: v2\nmodules:\n  - path: api\n  - path: proto\n    lint:\n      use: [STANDARD]\n" +
		"lint:\n  use: [STANDARD]\n", "proto/a.proto": "", "api/a.proto": ""})
	buf := bufBinary(t)
	h, _ := Resolve(context.Background(), buf, head, head, ".")
	b, _ := Resolve(context.Background(), buf, base, base, ".")
	j, err := Judge(context.Background(), buf, h, b)
	if err != nil {
		t.Fatal(err)
	}
	want := mustYAML(t, "version: v2\nmodules:\n  - path: api\n    lint:\n      use: [MINIMAL]\n  - path: proto\n    lint:\n      except: [ENUM_ZERO_VALUE_SUFFIX]\n"+
		"plugins:\n  - plugin: buf.build/acme/rules\n")
	if !reflect.DeepEqual(j.Config.Doc, want) {
		t.Fatalf("judged config %v\nwant %v", j.Config.Doc, want)
	}
	line := j.Change.Line()
	for _, part := range []string{
		"changes lint of module api: `use: STANDARD`, `no longer use: MINIMAL`",
		"tightens lint of module proto: `no longer except: ENUM_ZERO_VALUE_SUFFIX`, `use: STANDARD`",
		"loosens plugins: `no longer plugin: buf.build/acme/rules`",
	} {
		if !strings.Contains(line, part) {
			t.Errorf("%q lacks %q", line, part)
		}
	}
	if got := strings.Join(j.From, "; "); got != "api: the base's buf.yaml (its workspace-wide rules: the base has no module api); proto: the base's buf.yaml" {
		t.Errorf("from %q", got)
	}
}

// Which way a change goes: adding to use tightens, a flag set true that
// loosens loosens, a suffix only changes.
func TestChangeVerbs(t *testing.T) {
	for _, c := range []struct {
		head, base map[string]any
		want       string
	}{
		{map[string]any{"use": []any{"STANDARD", "COMMENTS"}}, map[string]any{"use": []any{"STANDARD"}}, "tightens lint: `use: COMMENTS`"},
		{map[string]any{"ignore_unstable_packages": true}, nil, "loosens lint: `ignore_unstable_packages: true`"},
		{nil, map[string]any{"disallow_comment_ignores": true}, "loosens lint: `no longer disallow_comment_ignores: true`"},
		{map[string]any{"enum_zero_value_suffix": "_NONE"}, nil, "changes lint: `enum_zero_value_suffix: _NONE`"},
		{map[string]any{"ignore_only": map[string]any{"FIELD_LOWER_SNAKE_CASE": []any{"proto/a.proto"}}}, nil,
			"loosens lint: `ignore_only: FIELD_LOWER_SNAKE_CASE: proto/a.proto`"},
		{map[string]any{"use": []any{"STANDARD"}}, map[string]any{"use": []any{"STANDARD"}}, ""},
	} {
		parts := diffSection("lint", "", c.head, c.base)
		got := ""
		if len(parts) > 0 {
			got = strings.TrimSuffix(strings.TrimPrefix(Change{File: "x", Parts: parts}.Line(), "x "), " (judged by the base's rules; applies once merged)")
		}
		if got != c.want {
			t.Errorf("%v over %v: %q, want %q", c.head, c.base, got, c.want)
		}
	}
}

func mustYAML(t *testing.T, s string) map[string]any {
	t.Helper()
	m := map[string]any{}
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
