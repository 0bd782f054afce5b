package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/version"
)

func init() {
	register("version", "print wiregate's version and the buf, Go and Valgrind it will use", cmdVersion)
}

func cmdVersion(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	printVersions(ctx, os.Stdout)
	return nil
}

// printVersions says, a line each, which wiregate this is and which buf,
// Go and Valgrind a gate here would run, with their paths; or, for one it
// would not find, what it would do instead. Nothing is installed.
func printVersions(ctx context.Context, w io.Writer) {
	v := version.This()
	fmt.Fprintf(w, "wiregate %s (%s, built with %s)\n", v, version.Module, v.Go)
	if buf, err := prepare.InstalledBuf(ctx, "", "", "", ""); err == nil {
		// A buf found is of the pinned version, but for $WIREGATE_BUF's,
		// which is taken as it is: that one says its own.
		v := prepare.BufVersion
		if buf == os.Getenv("WIREGATE_BUF") {
			v = firstWord(printed(ctx, "", buf, "--version"))
		}
		fmt.Fprintf(w, "buf      %s  %s\n", v, buf)
	} else {
		fmt.Fprintf(w, "buf      %s  not found: a gate installs it into its cache on first use (with npm, else go install)\n", prepare.BufVersion)
	}
	if gv, path := goToolchain(ctx); path != "" {
		fmt.Fprintf(w, "go       %s  %s\n", gv, path)
	} else {
		fmt.Fprintln(w, "go       not found: install Go (go.dev/dl); wiregate builds its bench programs with it")
	}
	if vg, err := cpucost.Which(); err == nil {
		fmt.Fprintf(w, "valgrind %s  %s\n", strings.TrimPrefix(firstWord(printed(ctx, "", vg, "--version")), "valgrind-"), vg)
	} else {
		fmt.Fprintf(w, "valgrind not found: %v\n", err)
	}
}

// goToolchain is the Go that builds a bench program: `go env GOVERSION`
// where a bench module's go.mod (the harness's) would choose it.
func goToolchain(ctx context.Context) (string, string) {
	path, err := exec.LookPath("go")
	if err != nil {
		return "", ""
	}
	dir, err := os.MkdirTemp("", "wiregate-version-")
	if err != nil {
		return "", path
	}
	defer os.RemoveAll(dir)
	if b, err := fs.ReadFile(harness.Source, "go.mod"); err == nil {
		_ = os.WriteFile(filepath.Join(dir, "go.mod"), b, 0o644)
	}
	return printed(ctx, dir, path, "env", "GOVERSION"), path
}

// printed is what a program prints, trimmed; "" when it fails.
func printed(ctx context.Context, dir, name string, args ...string) string {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return "?"
}
