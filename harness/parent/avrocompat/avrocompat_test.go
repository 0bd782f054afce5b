package avrocompat

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// record builds an orders.v1.Order schema from field JSON snippets.
func record(fields ...string) []byte {
	return []byte(`{"type":"record","name":"Order","namespace":"orders.v1","fields":[` + strings.Join(fields, ",\n") + `]}`)
}

const (
	id            = `{"name":"id","type":"long"}`
	amount        = `{"name":"amount","type":"double"}`
	amountDefault = `{"name":"amount","type":"double","default":0}`
	amountInt     = `{"name":"amount","type":"int"}`
	note          = `{"name":"note","type":"string","default":""}`
	region        = `{"name":"region","type":"string"}`
	regionDefault = `{"name":"region","type":"string","default":"eu"}`
)

var (
	v1               = record(id, amount, note)
	addedNoDefault   = record(id, amount, note, region)
	addedWithDefault = record(id, amount, note, regionDefault)
	removedNoDefault = record(id, note)   // amount had no default
	removedDefault   = record(id, amount) // note had one
	narrowedType     = record(id, amountInt, note)
)

func messages(fs []report.Finding) string {
	var b []string
	for _, f := range fs {
		b = append(b, f.Message)
	}
	return strings.Join(b, "\n")
}

// TestLevels runs each change at each non-transitive level: which direction
// breaks, and that the finding says which.
func TestLevels(t *testing.T) {
	const back, fwd = "new readers cannot read old data", "old readers cannot read new data"
	cases := []struct {
		name string
		new  []byte
		// want per level: "" passes, else a substring of the findings
		backward, forward string
	}{
		{"added field without default", addedNoDefault, back + ": record `orders.v1.Order`: field `region` has no default", ""},
		{"added field with default", addedWithDefault, "", ""},
		{"removed field without default", removedNoDefault, "", fwd + ": record `orders.v1.Order`: field `amount` has no default in the old schema"},
		{"removed field with default", removedDefault, "", ""},
		{"narrowed double to int", narrowedType, back + ": field `amount`: new type int cannot read old type double", ""},
	}
	for _, c := range cases {
		for _, lv := range []struct {
			level Level
			want  []string
		}{
			{Backward, []string{c.backward}},
			{Forward, []string{c.forward}},
			{Full, []string{c.backward, c.forward}},
			{None, nil},
		} {
			fs, err := Check("orders.avsc", c.new, [][]byte{v1}, lv.level)
			if err != nil {
				t.Fatalf("%s at %s: %v", c.name, lv.level, err)
			}
			wantAny := false
			for _, w := range lv.want {
				if w == "" {
					continue
				}
				wantAny = true
				if !strings.Contains(messages(fs), w) {
					t.Errorf("%s at %s: findings %q lack %q", c.name, lv.level, messages(fs), w)
				}
			}
			if !wantAny && len(fs) > 0 {
				t.Errorf("%s at %s: want compatible, got %q", c.name, lv.level, messages(fs))
			}
			for _, f := range fs {
				if f.Kind != report.KindAvro || f.File != "orders.avsc" || f.Rule != string(lv.level) {
					t.Errorf("finding fields: %+v", f)
				}
			}
		}
	}
}

func TestFindingPointsAtTheField(t *testing.T) {
	fs, err := Check("orders.avsc", addedNoDefault, [][]byte{v1}, Backward)
	if err != nil || len(fs) != 1 {
		t.Fatalf("%v %v", fs, err)
	}
	if fs[0].Line != 4 { // record() puts one field a line after the header
		t.Errorf("line %d, want the line of region (4):\n%s", fs[0].Line, addedNoDefault)
	}
}

// TestDefaultsDecide: two checks that differ only in a default get
// different verdicts, in either order. (hamba/avro's compatibility cache
// keyed on canonical fingerprints, which leave `default` out, and answered
// the second question from the first.)
func TestDefaultsDecide(t *testing.T) {
	for i := 0; i < 2; i++ {
		if fs, err := Check("orders.avsc", addedWithDefault, [][]byte{v1}, Backward); err != nil || len(fs) != 0 {
			t.Fatalf("with default: %v %v", fs, err)
		}
		if fs, err := Check("orders.avsc", addedNoDefault, [][]byte{v1}, Backward); err != nil || len(fs) == 0 {
			t.Fatalf("without default after with default must still fail: %v %v", fs, err)
		}
	}
}

// TestNullableFieldNeedsADefault: a new ["null", T] field without a default
// breaks BACKWARD, as the specification and Java (Confluent's registry)
// say; twmb/avro alone would give it an implicit null default.
func TestNullableFieldNeedsADefault(t *testing.T) {
	noDefault := record(id, amount, note, `{"name":"email","type":["null","string"]}`)
	fs, err := Check("orders.avsc", noDefault, [][]byte{v1}, Backward)
	if err != nil || !strings.Contains(messages(fs), "record `orders.v1.Order`: field `email` has no default, and the old schema does not have it") {
		t.Errorf("without default: %q %v", messages(fs), err)
	}
	withDefault := record(id, amount, note, `{"name":"email","type":["null","string"],"default":null}`)
	if fs, err := Check("orders.avsc", withDefault, [][]byte{v1}, Backward); err != nil || len(fs) != 0 {
		t.Errorf("with default null: %q %v", messages(fs), err)
	}
	// Present on both sides, the missing default changes nothing.
	if fs, err := Check("orders.avsc", noDefault, [][]byte{noDefault}, Full); err != nil || len(fs) != 0 {
		t.Errorf("unchanged: %q %v", messages(fs), err)
	}
}

func TestTransitive(t *testing.T) {
	// BACKWARD_TRANSITIVE: region gains a default, then loses it. Against
	// v2 that is fine; v1's data has no region at all.
	b1 := record(id)
	b2 := record(id, regionDefault)
	b3 := record(id, region)
	history := [][]byte{b1, b2}
	if fs, _ := Check("o.avsc", b3, history, Backward); len(fs) != 0 {
		t.Errorf("BACKWARD against the last only should pass: %s", messages(fs))
	}
	fs, err := Check("o.avsc", b3, history, BackwardTransitive)
	if err != nil || !strings.Contains(messages(fs), "field `region` has no default") || !strings.Contains(messages(fs), "earlier version 1 of 2") {
		t.Errorf("BACKWARD_TRANSITIVE should fail against version 1: %q %v", messages(fs), err)
	}

	// FORWARD_TRANSITIVE: amount gets a default, then is removed. v2's
	// readers cope; v1's readers have no default for it.
	f1 := record(id, amount)
	f2 := record(id, amountDefault)
	f3 := record(id)
	if fs, _ := Check("o.avsc", f3, [][]byte{f1, f2}, Forward); len(fs) != 0 {
		t.Errorf("FORWARD should pass: %s", messages(fs))
	}
	if fs, _ := Check("o.avsc", f3, [][]byte{f1, f2}, ForwardTransitive); !strings.Contains(messages(fs), "old readers cannot read new data") {
		t.Errorf("FORWARD_TRANSITIVE should fail: %q", messages(fs))
	}
	if fs, _ := Check("o.avsc", f3, [][]byte{f1, f2}, FullTransitive); len(fs) == 0 {
		t.Errorf("FULL_TRANSITIVE should fail")
	}
	if fs, _ := Check("o.avsc", f3, nil, FullTransitive); len(fs) != 0 {
		t.Errorf("a new file passes")
	}
}

func TestNestedEnumAndUnion(t *testing.T) {
	old := []byte(`{"type":"record","name":"Order","namespace":"orders.v1","fields":[
	 {"name":"customer","type":{"type":"record","name":"Customer","fields":[
	   {"name":"tier","type":{"type":"enum","name":"Tier","symbols":["FREE","PRO","GOLD"]}},
	   {"name":"email","type":["null","string"],"default":null}]}}]}`)
	neu := []byte(`{"type":"record","name":"Order","namespace":"orders.v1","fields":[
	 {"name":"customer","type":{"type":"record","name":"Customer","fields":[
	   {"name":"tier","type":{"type":"enum","name":"Tier","symbols":["FREE","PRO"]}},
	   {"name":"email","type":["null","long"],"default":null}]}}]}`)
	fs, err := Check("o.avsc", neu, [][]byte{old}, Backward)
	if err != nil {
		t.Fatal(err)
	}
	got := messages(fs)
	for _, w := range []string{"field `customer.tier`: new enum `orders.v1.Tier` lacks symbol `GOLD`", "field `customer.email`"} {
		if !strings.Contains(got, w) {
			t.Errorf("findings %q lack %q", got, w)
		}
	}
}

// A reader union whose branch for the writer's record cannot read it says
// why inside that branch, not that no branch matches.
func TestUnionBranchThatCannotRead(t *testing.T) {
	item := func(ns, extra string) string {
		return `{"type":"record","name":"Item","namespace":"` + ns + `","fields":[{"name":"id","type":"long"}` + extra + `]}`
	}
	old := []byte(`{"type":"record","name":"Order","namespace":"orders.v1","fields":[{"name":"item","type":` + item("shop.c", "") + `}]}`)
	neu := []byte(`{"type":"record","name":"Order","namespace":"orders.v1","fields":[{"name":"item","type":[` + item("shop.a", `,{"name":"qty","type":"int"}`) + `,` + item("shop.b", "") + `]}]}`)
	fs, err := Check("o.avsc", neu, [][]byte{old}, Backward)
	if err != nil || !strings.Contains(messages(fs), "record `shop.a.Item`: field `item.qty` has no default") {
		t.Errorf("findings %q %v", messages(fs), err)
	}
}

func TestBadInput(t *testing.T) {
	for file, want := range map[string]string{
		"bad_json.avsc.json":   "avro schema testdata/bad_json.avsc.json: not JSON",
		"bad_schema.avsc.json": "avro schema testdata/bad_schema.avsc.json: not a valid Avro schema",
	} {
		p := filepath.Join("testdata", file)
		data, _ := os.ReadFile(p)
		_, err := Check(p, data, nil, Backward)
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want bad input with %q", file, err, want)
		}
	}
	_, err := ParseLevel("SIDEWAYS")
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "BACKWARD, FORWARD, FULL, BACKWARD_TRANSITIVE, FORWARD_TRANSITIVE, FULL_TRANSITIVE, NONE") {
		t.Errorf("level: %v", err)
	}
	if l, err := ParseLevel("full_transitive"); err != nil || l != FullTransitive {
		t.Errorf("lower case: %v %v", l, err)
	}
}

func write(t *testing.T, dir, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckDirs(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	write(t, base, "schemas/orders.avsc", v1)
	write(t, base, "schemas/gone.avsc", v1)
	write(t, base, "schemas/deep/x/same.avsc", v1)
	write(t, head, "schemas/orders.avsc", addedNoDefault)
	write(t, head, "schemas/deep/x/same.avsc", v1)
	write(t, head, "schemas/brand_new.avsc", addedNoDefault)
	write(t, head, "other/ignored.avsc", []byte("not json"))

	fs, err := CheckDirs(base, head, []string{"schemas/**/*.avsc"}, Backward, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].File != "schemas/orders.avsc" || fs[1].File != "schemas/gone.avsc" ||
		!strings.Contains(fs[1].Message, "removed or renamed") {
		t.Errorf("findings: %+v", fs)
	}
	if fs, err := CheckDirs(base, head, []string{"schemas/**/*.avsc"}, None, nil); err != nil || len(fs) != 0 {
		t.Errorf("NONE: %v %v", fs, err)
	}
	if _, err := CheckDirs(base, head, nil, Backward, nil); exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "other/ignored.avsc") {
		t.Errorf("default glob reaches the broken file: %v", err)
	}
	fs, err = CheckDirs("", head, []string{"schemas/**/*.avsc"}, Full, nil)
	if err != nil || len(fs) != 0 {
		t.Errorf("no base: everything is new: %v %v", fs, err)
	}
	// Transitive levels take the history.
	history := func(rel string) ([]*avro.Schema, error) {
		if rel == "schemas/orders.avsc" {
			return []*avro.Schema{avro.MustParse(string(record(id))), avro.MustParse(string(v1))}, nil
		}
		return nil, nil
	}
	fs, err = CheckDirs(base, head, []string{"schemas/**/*.avsc"}, BackwardTransitive, history)
	if err != nil || !strings.Contains(messages(fs), "earlier versions 1, 2 of 2") {
		t.Errorf("transitive: %q %v", messages(fs), err)
	}
}

// gitRepo is a fresh git repository and a way to run git in it (the test
// is skipped without git).
func gitRepo(t *testing.T) (dir string, run func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir = t.TempDir()
	run = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run("init", "-q")
	return dir, run
}

func TestHistory(t *testing.T) {
	dir, run := gitRepo(t)
	for i, v := range [][]byte{record(id), v1, addedWithDefault} {
		write(t, dir, "a/order.avsc", v)
		write(t, dir, "other.txt", []byte(fmt.Sprint(i)))
		run("add", ".")
		run("commit", "-q", "-m", fmt.Sprint("v", i))
	}
	if err := os.MkdirAll(filepath.Join(dir, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("mv", "a/order.avsc", "b/order.avsc")
	run("commit", "-q", "-m", "rename")
	write(t, dir, "other.txt", []byte("unrelated"))
	run("commit", "-qam", "unrelated")

	history, why := GitHistory(context.Background(), dir, "HEAD", nil)
	if history == nil {
		t.Fatal(why)
	}
	got, err := history("b/order.avsc")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{record(id), v1, addedWithDefault}
	if len(got) != len(want) {
		t.Fatalf("got %d versions, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if w := avro.MustParse(string(want[i])); got[i].String() != w.String() {
			t.Errorf("version %d: %s, want %s", i, got[i], w)
		}
	}
	bad, _ := GitHistory(context.Background(), dir, "no-such-ref", nil)
	if _, err := bad("b/order.avsc"); exitcode.Code(err) != exitcode.Unusable {
		t.Errorf("bad ref: %v", err)
	}
}
