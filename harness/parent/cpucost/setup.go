package cpucost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
	"github.com/wiregate/wiregate/harness/program/subcmd"
)

// Mode is the cpu-cost input: whether a gate counts instructions.
type Mode string

const (
	// Auto counts where Valgrind can be had: found on PATH, or installed
	// with apt-get on a CI runner; elsewhere CPU cost is time only.
	Auto Mode = "auto"
	// On requires the counts: where they cannot be had, the gate stops
	// (exit 2) instead of going on with time only.
	On Mode = "on"
	// Off never counts.
	Off Mode = "off"
)

// Modes lists the valid modes, for the input's error.
var Modes = []Mode{Auto, On, Off}

// ParseMode reads a cpu-cost value (case-insensitive).
func ParseMode(s string) (Mode, bool) {
	m := Mode(strings.ToLower(strings.TrimSpace(s)))
	for _, v := range Modes {
		if m == v {
			return m, true
		}
	}
	return "", false
}

// Env is what decides besides the mode: where the gate runs.
type Env struct {
	// CI is a runner the gate may install packages on (the gate sets it
	// from GITHUB_ACTIONS=true). A developer's machine is never changed.
	CI bool
	// Valgrind is the valgrind binary; "valgrind" on PATH when empty.
	Valgrind string
	// Install installs Valgrind; installWithAPT when nil. Tests replace it.
	Install func(ctx context.Context) error
	// InstallTimeout bounds Install; InstallTimeout when 0.
	InstallTimeout time.Duration
}

// Setup is what the gate counts with, or why it does not.
type Setup struct {
	// Valgrind is the binary to count with; empty when not counting.
	Valgrind string
	// Reason says in one line why CPU cost is time only (Valgrind empty).
	Reason string
	// Installed says in one line that (and how fast) the gate installed
	// Valgrind itself.
	Installed string
}

// InstallTimeout bounds installing Valgrind: far above what apt-get takes
// on a hosted runner; a held dpkg lock or an unreachable mirror must not
// hold a gate for longer than a few minutes.
const InstallTimeout = 3 * time.Minute

// Prepare decides whether a gate counts instructions, installing Valgrind
// on a CI runner when it is missing and the mode allows. Not counting is a
// Setup with a Reason; it is an error (exit 2, naming the input) only when
// the mode is on.
func Prepare(ctx context.Context, mode Mode, env Env) (Setup, error) {
	if mode == Off {
		return Setup{Reason: "cpu-cost is off, so CPU cost is time only"}, nil
	}
	// unavailable is the answer when counting cannot be had: why, and what
	// would make it possible.
	unavailable := func(why, fix string) (Setup, error) {
		if mode == On {
			return Setup{}, exitcode.BadInput("cpu-cost is on, but %s: %s, or set cpu-cost to auto (time only where Valgrind cannot be had)", why, fix)
		}
		return Setup{Reason: fmt.Sprintf("%s (%s), so CPU cost is time only", why, fix)}, nil
	}
	if why := unsupported(); why != "" {
		return unavailable(why, "run the gate on a Linux runner to count instructions")
	}
	if vg, err := findValgrind(env.Valgrind); err == nil {
		return Setup{Valgrind: vg}, nil
	}
	name := env.Valgrind
	if name == "" {
		name = "valgrind"
	}
	const fix = "install valgrind to count instructions (apt-get install valgrind)"
	if !env.CI {
		// Never install on a developer's machine.
		return unavailable(fmt.Sprintf("%s is not installed", name), fix)
	}
	install := env.Install
	if install == nil {
		install = installWithAPT
	}
	timeout := env.InstallTimeout
	if timeout <= 0 {
		timeout = InstallTimeout
	}
	start := time.Now()
	ictx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := install(ictx); err != nil {
		if ctx.Err() != nil {
			return Setup{}, ctx.Err()
		}
		if ictx.Err() != nil {
			err = fmt.Errorf("it did not finish in %s", timeout)
		}
		return unavailable(fmt.Sprintf("%s is not installed and installing it failed: %s", name, subcmd.OneLine(err.Error())), "install it in an earlier step")
	}
	vg, err := findValgrind(env.Valgrind)
	if err != nil {
		return unavailable(fmt.Sprintf("apt-get installed valgrind but %s is still not found", name), "install it in an earlier step")
	}
	return Setup{Valgrind: vg, Installed: fmt.Sprintf("installed valgrind with apt-get in %.1f s", time.Since(start).Seconds())}, nil
}

// installWithAPT runs `apt-get install -y valgrind` (through `sudo -n` when
// not root: a hosted runner's user may sudo without a password, anything
// else fails instead of asking), and once more after `apt-get update` when
// the first try fails (a runner's package lists can be stale).
func installWithAPT(ctx context.Context) error {
	steps := installCommands(os.Geteuid() == 0)
	err := runStep(ctx, steps[0])
	if err == nil || ctx.Err() != nil {
		return err
	}
	for _, step := range steps[1:] {
		if err := runStep(ctx, step); err != nil {
			return err
		}
	}
	return nil
}

// installCommands are the commands installWithAPT runs: the install, then
// the update and the install again.
func installCommands(root bool) [][]string {
	install := []string{"apt-get", "install", "-y", "-q", "--no-install-recommends", "valgrind"}
	update := []string{"apt-get", "update", "-q"}
	steps := [][]string{install, update, install}
	if !root {
		for i, s := range steps {
			steps[i] = append([]string{"sudo", "-n"}, s...)
		}
	}
	return steps
}

func runStep(ctx context.Context, argv []string) error {
	cmd := proc.Command(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	cmd.Stdout = cmd.Stderr // one capture of both, in order
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if detail := lastLine(cmd.Captured().String()); errors.As(err, &ee) && detail != "" {
			return fmt.Errorf("%s: %s", strings.Join(argv, " "), detail)
		}
		return fmt.Errorf("%s: %w", strings.Join(argv, " "), errors.Unwrap(err))
	}
	return nil
}
