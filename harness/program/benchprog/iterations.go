package benchprog

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// The iterations file (BenchFlags.IterationsFile) holds one name=N line a
// benchmark: its name as bench's lines print it, N the operations a timed
// run does. The parent writes it, bench reads it: this file owns the form.

// WriteIterations writes it to path.
func WriteIterations(path string, it map[string]int) error {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(it)) {
		fmt.Fprintf(&b, "%s=%d\n", name, it[name])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write iterations: %w", err)
	}
	return nil
}

// ReadIterations reads path; a file that is not one is bad input naming it.
func ReadIterations(path string) (map[string]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, exitcode.BadInput("--iterations-file %s: no such file", path)
		}
		return nil, fmt.Errorf("read --iterations-file: %w", err)
	}
	it := map[string]int{}
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if line == "" {
			continue
		}
		name, n, ok := strings.Cut(line, "=")
		runs, err := strconv.Atoi(n)
		if !ok || err != nil || runs < 1 || !strings.HasPrefix(name, "Benchmark") {
			return nil, exitcode.BadInput("--iterations-file %s line %d: %q: want BenchmarkOp/message/format=N, N at least 1", path, i+1, line)
		}
		it[name] = runs
	}
	return it, nil
}
