package checkout

import (
	"context"
	"fmt"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/git"
)

// LatestTag is the newest tag of dir's repository matching glob, in
// version order ("" when none matches). Version order, not tag date: a
// v1.3.5 backport tagged after v1.4.0 is not the latest release, and
// v1.10.0 is newer than v1.9.0. A pre-release sorts before its release
// (v2.0.0-rc1 < v2.0.0) but after the release before it; a glob that
// should skip pre-releases must not match them.
func LatestTag(ctx context.Context, dir, glob string) (string, error) {
	out, err := git.Run(ctx, dir, "-c", "versionsort.suffix=-", "tag", "--list", "--sort=-version:refname", glob)
	if err != nil {
		return "", fmt.Errorf("list the tags matching %s: %w", glob, err)
	}
	first, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(first), nil
}
