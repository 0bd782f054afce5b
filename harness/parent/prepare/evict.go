package prepare

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A cache that only grows costs what it saves: the action restores and
// saves its cache entry whole on every run (the restore counts against
// time-budget), and each changed schema set adds a base and a head bench
// program of 20–30 MB; a test suite or a developer's machine adds
// hundreds. So every use marks its entry (the directory's mtime) and
// every prepare drops the least recently used entries beyond a few, never
// one used within recentUse: a run that is still measuring starts its
// program again round after round.
const (
	keepPrograms = 16 // bench programs: a run uses two, a matrix of shards the same two
	keepPlugins  = 2  // protoc plugins, one set per harness source
	recentUse    = 6 * time.Hour
)

// used marks the cache entry dir as used now.
func used(dir string) {
	now := time.Now()
	_ = os.Chtimes(dir, now, now) // best effort: an unmarked entry is only evicted sooner
}

// evict removes the entries (subdirectories) of dir beyond the keep most
// recently used, except those used since now-recentUse and a build's
// staging directories. Best effort: what it cannot remove stays.
func evict(dir string, keep int, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		path string
		used time.Time
	}
	var all []entry
	for _, e := range entries {
		if !e.IsDir() || strings.Contains(e.Name(), ".tmp-") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		all = append(all, entry{filepath.Join(dir, e.Name()), info.ModTime()})
	}
	slices.SortFunc(all, func(a, b entry) int { return b.used.Compare(a.used) })
	for i, e := range all {
		if i >= keep && now.Sub(e.used) > recentUse {
			_ = os.RemoveAll(e.path)
		}
	}
}
