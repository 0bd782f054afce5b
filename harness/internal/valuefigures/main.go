// Command valuefigures prints compressed bytes per record of generated
// records (record.Generate) for every top-level message of a descriptor
// set, per codec, and with -real those of the real-shaped corpus
// (corpus.go) for obs.v1.LogRecord and obs.v1.Span: the generated values'
// figures (scripts/figures/values.sh runs it on both sides of the change).
//
//	valuefigures [-real] [-label L] DESCRIPTORS.binpb
//
// One line per message and format: label, message, format, raw bytes per
// record, then bytes per record after gzip, snappy, lz4 and zstd in
// 16 KiB batches, tab-separated.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/record"
)

var codecs = []string{"gzip", "snappy", "lz4", "zstd"}

const batchBytes = 16384

func main() {
	withReal := flag.Bool("real", false, "also print the real-shaped corpus of obs.v1.LogRecord and obs.v1.Span")
	label := flag.String("label", "generated", "the first column of generated records' lines")
	flag.Parse()
	if err := run(flag.Arg(0), *label, *withReal); err != nil {
		fmt.Fprintln(os.Stderr, "valuefigures:", err)
		os.Exit(1)
	}
}

func run(path, label string, withReal bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var failed error
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if strings.HasPrefix(string(fd.Package()), "google.") {
			return true
		}
		for i := 0; i < fd.Messages().Len(); i++ {
			mt := dynamicpb.NewMessageType(fd.Messages().Get(i))
			if failed = printLines(label, mt, record.Generate(mt, record.PoolSize, record.Seed)); failed != nil {
				return false
			}
			if withReal {
				if recs := corpus(mt); recs != nil {
					if failed = printLines("real-shaped", mt, recs); failed != nil {
						return false
					}
				}
			}
		}
		return true
	})
	return failed
}

// printLines writes recs' lines: protobuf as generated code writes it, and
// protojson standing in for a JSON format.
func printLines(label string, mt protoreflect.MessageType, recs []proto.Message) error {
	for _, format := range []string{"protobuf", "protojson"} {
		values := make([][]byte, len(recs))
		raw := 0
		for i, m := range recs {
			var err error
			if format == "protobuf" {
				values[i], err = proto.MarshalOptions{Deterministic: true}.Marshal(m)
			} else {
				values[i], err = protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
			}
			if err != nil {
				return err
			}
			raw += len(values[i])
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%.1f", label, mt.Descriptor().FullName(), format, float64(raw)/float64(len(recs)))
		for _, c := range codecs {
			r, err := batch.Measure(values, c, batchBytes)
			if err != nil {
				return err
			}
			line += fmt.Sprintf("\t%.1f", r.PerRecord())
		}
		fmt.Println(line)
	}
	return nil
}
