package cases_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/internal/codectest"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// What a count process or a bench round loads is what the sizes process
// built: the same encoded bytes, record for record, in pool order; and
// every loaded value is the same record, so encoding it again gives the
// same bytes (or, where protobuf orders a map at random, the same record).
func TestLoadedRecordsAreTheBuiltOnes(t *testing.T) {
	formats, err := codec.Parse("json,protobuf,avro")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, s := range codectest.Subjects(t) {
		built, err := cases.ForMessage(s, formats, cases.From{})
		if err != nil {
			t.Fatal(err)
		}
		if err := cases.Save(dir, built); err != nil {
			t.Fatal(err)
		}
		loaded, err := cases.Load(s, formats, dir, func(string) int { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		if len(loaded) != len(built) {
			t.Fatalf("%s: %d cases loaded, %d built", s.Name(), len(loaded), len(built))
		}
		for i, b := range built {
			l := loaded[i]
			enc, err := l.Codec.Encoder(l.Values)
			if err != nil {
				t.Fatal(err)
			}
			if l.Name() != b.Name() || l.Source != b.Source || len(l.Encoded) != len(b.Encoded) || len(l.Values) != len(l.Encoded) {
				t.Fatalf("%s: loaded %s from %q with %d records, built %d from %q", b.Name(), l.Name(), l.Source, len(l.Encoded), len(b.Encoded), b.Source)
			}
			for j := range b.Encoded {
				if !bytes.Equal(l.Encoded[j], b.Encoded[j]) {
					t.Fatalf("%s record %d: loaded bytes differ from the built ones", b.Name(), j)
				}
				again, err := enc(j)
				if err != nil {
					t.Fatal(err)
				}
				same := bytes.Equal(again, b.Encoded[j])
				if !same {
					same = proto.Equal(b.Format.ToProto(s, l.Values[j]), b.Records[j])
				}
				if !same {
					t.Fatalf("%s record %d: the loaded value is not the built record", b.Name(), j)
				}
			}
		}
		// A prefix loads the pool's first records.
		some, err := cases.Load(s, formats, dir, func(f string) int { return map[string]int{"json": 3}[f] })
		if err != nil || len(some[0].Encoded) != 3 || !bytes.Equal(some[0].Encoded[2], built[0].Encoded[2]) || len(some[1].Encoded) != len(built[1].Encoded) {
			t.Fatalf("%s: a 3-record json prefix loaded %d records (%v)", s.Name(), len(some[0].Encoded), err)
		}
	}
}

// A case never saved is ErrNotSaved (a bench round then builds it); a file
// that is not what Save wrote, or is cut short, is a one-line input error
// naming the file and the fix.
func TestLoadRefusesWhatSaveDidNotWrite(t *testing.T) {
	formats, _ := codec.Parse("protobuf")
	s := codectest.Subjects(t)[0]
	dir := t.TempDir()
	if _, err := cases.Load(s, formats, dir, func(string) int { return 0 }); !errors.Is(err, cases.ErrNotSaved) {
		t.Fatalf("nothing saved: %v", err)
	}
	built, err := cases.ForMessage(s, formats, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cases.Save(dir, built); err != nil {
		t.Fatal(err)
	}
	path := cases.SavedFile(dir, s.Name(), "protobuf")
	whole, _ := os.ReadFile(path)
	for name, content := range map[string][]byte{
		"foreign": []byte("not records\n"),
		"cut":     whole[:len(whole)-1],
	} {
		os.WriteFile(path, content, 0o644)
		_, err := cases.Load(s, formats, dir, func(string) int { return 0 })
		var ec *exitcode.Error
		if !errors.As(err, &ec) || ec.Code != exitcode.Unusable || !strings.Contains(err.Error(), filepath.Base(path)) ||
			!strings.Contains(err.Error(), "size again") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s file: %v", name, err)
		}
	}
}
