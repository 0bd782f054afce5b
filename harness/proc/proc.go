// Package proc starts wiregate's child processes so that they stop with the
// context that started them and leave nothing behind: each child leads its
// own process group (a bench program under taskset, a go build with its
// compilers, valgrind and its tool), and cancelling the context signals the
// whole group, SIGTERM first so the child can clean up (delete a topic it
// was filling), SIGKILL KillAfter later.
package proc

import (
	"context"
	"os/exec"
	"time"
)

// KillAfter is how long a cancelled group gets between SIGTERM and SIGKILL.
// wiregate's programs stop in milliseconds on SIGTERM; the margin is for a
// topic deletion on a slow broker.
const KillAfter = 3 * time.Second

// waitDelay bounds Wait after the cancel: a grandchild holding the
// stdout pipe open cannot keep the parent waiting.
const waitDelay = KillAfter + time.Second

// Command is exec.CommandContext(ctx, name, args...) whose child leads its
// own process group, which ctx's end stops as a whole: SIGTERM, then
// SIGKILL KillAfter later. The child also gets SIGKILL if this process dies
// first (Linux).
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	OwnGroup(cmd)
	cmd.Cancel = func() error { return stopGroup(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay
	return cmd
}
