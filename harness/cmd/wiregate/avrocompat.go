package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/wiregate/wiregate/harness/parent/avrocompat"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("avro-compat", "Avro compatibility at a Confluent level: OLD.avsc… NEW.avsc, or BASE_DIR HEAD_DIR", cmdAvroCompat)
}

// cmdAvroCompat checks files (every operand but the last is an earlier
// version, oldest first; the last is the new one) or two checkouts.
func cmdAvroCompat(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("avro-compat", flag.ContinueOnError)
	levelText := fs.String("level", "BACKWARD", "BACKWARD, FORWARD, FULL, their _TRANSITIVE forms, or NONE")
	globs := fs.String("avro-schemas", inputs.DefaultOf("avro-schemas"), "with directories: the schemas to check (globs, comma separated)")
	historyRef := fs.String("history-ref", "", "with directories and a _TRANSITIVE level: take earlier versions from git history reachable from this ref in HEAD_DIR")
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	operands, err := parseWithOperands(fs, args)
	if err != nil {
		return err
	}
	level, err := avrocompat.ParseLevel(*levelText)
	if err != nil {
		return err
	}
	if len(operands) < 2 {
		return exitcode.BadInput("want OLD.avsc NEW.avsc (or BASE_DIR HEAD_DIR), got %d operand(s); run `wiregate avro-compat -h`", len(operands))
	}

	var findings []report.Finding
	onePair := ""
	if isDir(operands[0]) || isDir(operands[len(operands)-1]) {
		if len(operands) != 2 || !isDir(operands[0]) || !isDir(operands[1]) {
			return exitcode.BadInput("with directories, pass exactly BASE_DIR HEAD_DIR (got %v)", operands)
		}
		var history avrocompat.HistoryFunc
		if *historyRef != "" {
			var why string
			if history, why = avrocompat.GitHistory(ctx, operands[1], *historyRef, splitList(*globs)); history == nil {
				onePair = "each schema was checked against BASE_DIR's version only: HEAD_DIR " + why
			}
		} else {
			onePair = "without --history-ref, each schema was checked against BASE_DIR's version only; pass --history-ref REF to check every earlier version in HEAD_DIR's git history"
		}
		findings, err = avrocompat.CheckDirs(operands[0], operands[1], splitList(*globs), level, history)
	} else {
		findings, err = checkFiles(operands, level)
		if len(operands) == 2 {
			onePair = "with two files there is one earlier version; pass every earlier version, oldest first, before the new one"
		}
	}
	if err != nil {
		return err
	}
	if level.Transitive() && onePair != "" {
		// Not an error, but a transitive level promises more than was done.
		fmt.Fprintf(os.Stderr, "wiregate avro-compat: note: %s checked only one pair: %s\n", level, onePair)
	}

	if *asJSON {
		if findings == nil {
			findings = []report.Finding{}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(findings); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			loc := f.File
			if f.Line > 0 {
				loc = fmt.Sprintf("%s:%d", f.File, f.Line)
			}
			fmt.Printf("%s: %s\n", loc, f.Message)
		}
	}
	if len(findings) > 0 {
		return exitcode.Failf("%d Avro compatibility finding(s) at %s", len(findings), level)
	}
	return nil
}

func checkFiles(paths []string, level avrocompat.Level) ([]report.Finding, error) {
	versions := make([][]byte, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, exitcode.BadInput("avro schema %s: cannot read it: %v", p, err)
		}
		versions[i] = b
	}
	last := len(paths) - 1
	return avrocompat.Check(paths[last], versions[last], versions[:last], level)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
