package avrocompat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
)

// The corpus (testdata/java/corpus.json) is reader/writer pairs written for
// this test; testdata/java/verdicts.json is what Apache Avro Java's
// SchemaCompatibility said of each, recorded by scripts/avro-java.sh.
type javaPair struct {
	Name, About    string
	Reader, Writer json.RawMessage
	// The other .avsc files of each side's set (Java reads them first).
	ReaderImports []json.RawMessage `json:"reader_imports"`
	WriterImports []json.RawMessage `json:"writer_imports"`
}

type javaVerdicts struct {
	Avro, Java, Recorded string
	Verdicts             map[string]struct{ Verdict, Detail string }
}

// disagreements are the pairs where wiregate's verdict differs from Java's,
// with wiregate's. docs/verdicts.md says, for each, who is right by the
// specification and why.
var disagreements = map[string]string{
	"record-field-alias-and-name-both-in-writer": "INCOMPATIBLE", // Java throws
	"record-field-alias-equals-other-field-name": "INVALID",      // Java throws in the check
	"record-reader-int-default-written-as-1.0":   "COMPATIBLE",
	"union-same-short-name-first-incompatible":   "INCOMPATIBLE",
	"decimal-precision-changed":                  "INCOMPATIBLE",
	"decimal-scale-changed":                      "INCOMPATIBLE",
	"record-reader-enum-default-not-a-symbol":    "INVALID",
	"record-reader-fixed-default-wrong-length":   "INVALID",
}

// verdict is wiregate's: the BACKWARD check of the reader as the new
// schema against the writer as the old one, as the gate runs it.
func verdict(t *testing.T, p javaPair) (string, string) {
	t.Helper()
	fs, err := checkPair(p.Reader, p.ReaderImports, p.Writer, p.WriterImports, Backward)
	if err != nil {
		return "INVALID", err.Error()
	}
	if len(fs) > 0 {
		return "INCOMPATIBLE", messages(fs)
	}
	return "COMPATIBLE", ""
}

// checkPair checks schema neu against old at level, each read with its
// side's imports as one set (listed after the schema: the set resolves by
// name, not by order).
func checkPair(neu json.RawMessage, neuImports []json.RawMessage, old json.RawMessage, oldImports []json.RawMessage, level Level) ([]report.Finding, error) {
	if len(neuImports)+len(oldImports) == 0 {
		return Check("new.avsc", neu, [][]byte{old}, level)
	}
	read := func(main json.RawMessage, imports []json.RawMessage) (*avro.Schema, error) {
		srcs := []avroschema.Source{{Name: "a-main.avsc", Data: main}}
		for i, imp := range imports {
			srcs = append(srcs, avroschema.Source{Name: fmt.Sprintf("b-import-%d.avsc", i), Data: imp})
		}
		set, err := avroschema.ParseSet(srcs)
		if err != nil {
			return nil, err
		}
		return set.Schema("a-main.avsc"), nil
	}
	n, err := read(neu, neuImports)
	if err != nil {
		return nil, err
	}
	o, err := read(old, oldImports)
	if err != nil {
		return nil, err
	}
	return CheckSchemas("new.avsc", neu, n, []*avro.Schema{o}, level), nil
}

// TestJavaAgreement fails when a verdict moves: a pair where wiregate and
// Java agree that no longer do, or a known disagreement that changes.
func TestJavaAgreement(t *testing.T) {
	dir := filepath.Join("testdata", "java")
	var corpus []javaPair
	var java javaVerdicts
	for file, into := range map[string]any{"corpus.json": &corpus, "verdicts.json": &java} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, into); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	if len(corpus) < 100 || len(java.Verdicts) != len(corpus) || !strings.HasPrefix(java.Avro, "1.12.") {
		t.Fatalf("%d pairs, %d Java verdicts (Avro %s): rerun scripts/avro-java.sh", len(corpus), len(java.Verdicts), java.Avro)
	}
	agree := 0
	for _, p := range corpus {
		j, ok := java.Verdicts[p.Name]
		if !ok {
			t.Errorf("%s: no Java verdict; rerun scripts/avro-java.sh", p.Name)
			continue
		}
		ours, why := verdict(t, p)
		want, known := disagreements[p.Name]
		switch {
		case ours == j.Verdict && !known:
			agree++
		case ours == j.Verdict:
			t.Errorf("%s: wiregate and Java now agree (%s); take it off the disagreements and docs/verdicts.md", p.Name, ours)
		case !known:
			t.Errorf("%s (%s): wiregate %s, Java %s (%s)\nwiregate: %s", p.Name, p.About, ours, j.Verdict, j.Detail, why)
		case ours != want:
			t.Errorf("%s: wiregate %s, the known disagreement has %s (Java %s)", p.Name, ours, want, j.Verdict)
		}
		// FORWARD of the writer against the reader is the same question.
		fwd := "COMPATIBLE"
		if fs, err := checkPair(p.Writer, p.WriterImports, p.Reader, p.ReaderImports, Forward); err != nil {
			fwd = "INVALID"
		} else if len(fs) > 0 {
			fwd = "INCOMPATIBLE"
		}
		if fwd != ours {
			t.Errorf("%s: BACKWARD says %s, FORWARD the other way round %s", p.Name, ours, fwd)
		}
	}
	t.Logf("wiregate agrees with Apache Avro Java %s on %d of %d pairs", java.Avro, agree, len(corpus))
}
