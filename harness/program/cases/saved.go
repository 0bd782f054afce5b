package cases

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// A message's records are built once, natively, by the process that checks
// them (sizes) and saved encoded, one file per format; the processes that
// only run loops over them (count under Valgrind, the bench rounds) load
// them: reading a file and decoding each record once costs a fraction of
// generating, converting and encoding the pool, which under Valgrind was
// most of a count process (docs/design/counting-at-the-floor.md).

// savedHeader starts every saved case file; the line after it is the case's
// source.
const savedHeader = "wiregate-encoded-records 1"

// SavedFile is where the encoded records of message in format live in a
// saved-cases directory.
func SavedFile(dir, message, format string) string {
	return filepath.Join(dir, message, format+".records")
}

// Save writes every case's encoded records under dir, in pool order, with
// the line saying where they came from.
func Save(dir string, cs []*Case) error {
	for _, c := range cs {
		if err := save(SavedFile(dir, c.Subject.Name(), c.Format.Name), c); err != nil {
			return err
		}
	}
	return nil
}

func save(path string, c *Case) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save %s: %w", c.Name(), err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("save %s: %w", c.Name(), err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("save %s: %w", c.Name(), cerr)
		}
	}()
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "%s\n%s\n", savedHeader, strings.ReplaceAll(c.Source, "\n", " "))
	var n [binary.MaxVarintLen64]byte
	for _, b := range c.Encoded {
		w.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))])
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("save %s: %w", c.Name(), err)
	}
	return nil
}

// ErrNotSaved is Load's error when dir holds no saved records for a case.
var ErrNotSaved = errors.New("no saved records")

// Load makes s's cases in formats (those that measure it) from the
// records saved under dir: each format's first first(format) records (all
// of them when 0), each decoded once into a fresh typed value of the
// format, as the encode loop needs. The cases hold no proto records: what
// loads them runs loops, not the correctness gate, which the saving
// process ran on the same records. A case with no file is ErrNotSaved.
func Load(s *subject.Subject, formats []codec.Format, dir string, first func(format string) int) ([]*Case, error) {
	var out []*Case
	for _, f := range formats {
		if !f.Measures(s) {
			continue
		}
		c, err := load(s, f, SavedFile(dir, s.Name(), f.Name), first(f.Name))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func load(s *subject.Subject, f codec.Format, path string, first int) (*Case, error) {
	name := s.Name() + "/" + f.Name
	file, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w in %s", name, ErrNotSaved, filepath.Dir(filepath.Dir(path)))
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 64<<10)
	header, _ := r.ReadString('\n')
	source, err := r.ReadString('\n')
	if strings.TrimSuffix(header, "\n") != savedHeader || err != nil {
		return nil, exitcode.BadInput("saved records %s: not a file wiregate saved; remove it and size again", path)
	}
	cd, err := f.New(s)
	if err != nil {
		return nil, err
	}
	c := &Case{Subject: s, Format: f, Codec: cd, Source: strings.TrimSuffix(source, "\n")}
	for first <= 0 || len(c.Encoded) < first {
		n, err := binary.ReadUvarint(r)
		if errors.Is(err, io.EOF) {
			break
		}
		b := make([]byte, n)
		if err == nil {
			_, err = io.ReadFull(r, b)
		}
		if err != nil {
			return nil, exitcode.BadInput("saved records %s: record %d is cut short; remove it and size again", path, len(c.Encoded))
		}
		v := f.NewValue(s)
		if err := cd.Decode(b, v); err != nil {
			return nil, fmt.Errorf("load %s record %d: %w", name, len(c.Encoded), err)
		}
		c.Encoded, c.Values = append(c.Encoded, b), append(c.Values, v)
	}
	if len(c.Encoded) == 0 {
		return nil, exitcode.BadInput("saved records %s: no records; remove it and size again", path)
	}
	return c, nil
}
