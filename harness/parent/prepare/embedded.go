package prepare

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wiregate/wiregate/harness"
)

// keepHarnesses is how many written-out harness sources the cache keeps
// (one per wiregate version used lately).
const keepHarnesses = 2

// writing serializes writing the embedded source within one process; a
// staging directory renamed into place serializes processes.
var writing sync.Mutex

// embeddedHarness is the harness source this wiregate was built from
// (harness.Source), written out below cache once per version (its
// sources' hash), as a directory a bench module can replace the harness
// module with. No wiregate checkout is needed, whatever built the binary:
// `go install …@version`, `go build` in a checkout, the action.
func embeddedHarness(cache string) (string, error) {
	return writeSource(harness.Source, filepath.Join(cache, "harness"))
}

// writeSource writes src's source files (sourceFiles) into root/<hash>,
// unless they are there, and returns that directory.
func writeSource(src fs.FS, root string) (string, error) {
	writing.Lock()
	defer writing.Unlock()
	hash, err := hashSourceFiles(src)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, hash[:20])
	defer func() {
		used(dir)
		evict(root, keepHarnesses, time.Now())
	}()
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		sourceHashes.Store(dir, hash)
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("write wiregate's harness source: %w", err)
	}
	tmp, err := os.MkdirTemp(root, hash[:20]+".tmp-")
	if err != nil {
		return "", fmt.Errorf("write wiregate's harness source: %w", err)
	}
	defer os.RemoveAll(tmp)
	files, err := sourceFiles(src)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		b, err := fs.ReadFile(src, f)
		if err != nil {
			return "", fmt.Errorf("write wiregate's harness source: %w", err)
		}
		out := filepath.Join(tmp, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", fmt.Errorf("write wiregate's harness source: %w", err)
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return "", fmt.Errorf("write wiregate's harness source: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr != nil {
			return "", fmt.Errorf("write wiregate's harness source: %w", err)
		}
	}
	sourceHashes.Store(dir, hash)
	return dir, nil
}
