package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// ownGroup puts cmd's child in a process group of its own, so that a signal
// for the group reaches its children too and a terminal's Ctrl-C reaches
// only wiregate (which then stops its children in order: drains, topics,
// the broker). Pdeathsig kills the child if this process dies without
// cleaning up.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// stopGroup sends SIGTERM to the group led by pid and SIGKILL KillAfter
// later. A group that is already gone is os.ErrProcessDone, which exec
// treats as a clean cancel.
func stopGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGTERM)
	time.AfterFunc(KillAfter, func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

func killGroup(pid int) error {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
