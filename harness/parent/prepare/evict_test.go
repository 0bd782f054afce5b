package prepare

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The cache keeps the most recently used entries and any used lately,
// drops the rest, and never touches a build's staging directory; using an
// entry keeps it.
func TestEvictKeepsTheRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	mk := func(name string, age time.Duration) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		os.Chtimes(p, at, at)
	}
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		mk(name, time.Duration(i+1)*24*time.Hour) // a newest … e oldest, all past recentUse
	}
	mk("recent", recentUse/2)        // used lately: newer than a
	mk("x.tmp-123", 30*24*time.Hour) // a staging directory
	used(filepath.Join(dir, "e"))    // the oldest, just used again
	evict(dir, 3, now.Add(time.Second))
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	// Newest first: e (just used), recent, a — the 3 kept — then b, c, d
	// are past recentUse and beyond 3: removed.
	if want := []string{"a", "e", "recent", "x.tmp-123"}; !slices.Equal(left, want) {
		t.Fatalf("left %v, want %v", left, want)
	}
	// An entry used within recentUse stays even beyond keep.
	mk("b", recentUse/3)
	evict(dir, 1, now.Add(time.Second))
	entries, _ = os.ReadDir(dir)
	left = nil
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := []string{"b", "e", "recent", "x.tmp-123"}; !slices.Equal(left, want) {
		t.Fatalf("keep 1: left %v, want %v", left, want)
	}
}
