package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("compare", "benchstat's comparison of BASE.txt and HEAD.txt (--alpha A, --json)", cmdCompare)
}

func cmdCompare(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	alphaText := fs.String("alpha", inputs.DefaultOf("alpha"), "significance level, in (0, 1)")
	asJSON := fs.Bool("json", false, "print a JSON array of comparisons instead of benchstat's table")
	files, err := parseWithOperands(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return exitcode.BadInput("want two files, BASE.txt and HEAD.txt, got %d; run `wiregate compare -h`", len(files))
	}
	alpha, err := config.ParseAlpha("--alpha", *alphaText)
	if err != nil {
		return err
	}
	var readers [2]io.Reader
	for i, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return exitcode.BadInput("%s: cannot open it: %v", path, err)
		}
		defer f.Close()
		readers[i] = f
	}
	res, err := compare.Files(readers[0], readers[1], files[0], files[1], alpha)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(os.Stderr, w)
	}
	if !*asJSON {
		_, err := io.WriteString(os.Stdout, res.Text)
		return err
	}
	comps := res.Comparisons
	if comps == nil {
		comps = []compare.Comparison{}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(comps)
}

// parseWithOperands parses flags that may come before, between or after
// the operands (`compare a.txt b.txt --json`) and returns the operands.
func parseWithOperands(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			// Parsing the same arguments again fails the same way;
			// parseFlags words the error (and prints -h) as every command does.
			return nil, parseFlags(fs, args)
		}
		if fs.NArg() == 0 {
			return operands, nil
		}
		operands = append(operands, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
