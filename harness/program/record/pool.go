package record

import (
	"errors"
	"fmt"
	"os"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Pool returns the records to measure for mt, and a source line saying
// where they came from: the records file in recordsDir when there is one
// (written by the gate for a changed message: paired records, or the
// user's samples split into their same and added content), else the
// user's samples when samplesDir holds a file for mt, else PoolSize
// generated records. An empty directory name skips that source. loose is
// LoadSamples'.
func Pool(mt protoreflect.MessageType, samplesDir string, loose bool, recordsDir string) (recs []proto.Message, source string, err error) {
	if recordsDir != "" {
		path := PoolFile(recordsDir, mt.Descriptor().FullName())
		recs, err := ReadPool(path, mt)
		switch {
		case err == nil:
			return recs, fmt.Sprintf("records file (%d records)", len(recs)), nil
		case !errors.Is(err, os.ErrNotExist):
			return nil, "", err
		}
	}
	if samplesDir != "" {
		recs, ok, err := LoadSamples(samplesDir, mt, loose)
		if err != nil {
			return nil, "", err
		}
		if ok {
			return recs, fmt.Sprintf("samples (%d records)", len(recs)), nil
		}
	}
	recs, capped := generate(mt, PoolSize, Seed)
	source = fmt.Sprintf("generated (%d records, seed %d)", PoolSize, Seed)
	if capped > 0 {
		source = fmt.Sprintf("generated (%d records, seed %d, %d capped at %d KiB)", PoolSize, Seed, capped, MaxRecordBytes>>10)
	}
	return recs, source, nil
}
