package prepare

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// explainDeps turns a failed buf build of a module with registry deps into
// the line an offline runner needs: buf alone says "imported file does not
// exist" when buf.lock is missing, and names no fix when the registry is
// unreachable. Other failures pass through unchanged.
func explainDeps(c BufConfig, buildErr error) error {
	bufInput := c.Dir
	var y struct {
		Deps []string `yaml:"deps"`
	}
	if yaml.Unmarshal([]byte(c.text()), &y) != nil || len(y.Deps) == 0 {
		return buildErr
	}
	if _, err := os.Stat(filepath.Join(bufInput, "buf.lock")); errors.Is(err, os.ErrNotExist) {
		return exitcode.BadInput("buf build in %s: buf.yaml lists deps (%s) but there is no buf.lock next to it: run `buf dep update` where the registry is reachable and commit buf.lock (offline runners need the deps vendored, or buf.lock plus buf's cache)",
			bufInput, strings.Join(y.Deps, ", "))
	}
	msg := buildErr.Error()
	for _, sign := range []string{"unavailable", "dial tcp", "no such host", "connection refused", "i/o timeout", "TLS handshake"} {
		if strings.Contains(msg, sign) {
			return exitcode.BadInput("buf build in %s: could not reach the registry for buf.yaml's deps (%s): offline runners need the deps vendored, or buf.lock plus buf's module cache restored ($BUF_CACHE_DIR, default ~/.cache/buf); buf said: %s",
				bufInput, strings.Join(y.Deps, ", "), strings.TrimPrefix(msg, "buf build in "+bufInput+": "))
		}
	}
	return buildErr
}
