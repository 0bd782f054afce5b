//go:build !linux

package proc

import (
	"errors"
	"os"
	"os/exec"
)

// ownGroup: process groups and Pdeathsig are set up on Linux only (the
// platform wiregate measures on); elsewhere the child is stopped alone.
func ownGroup(cmd *exec.Cmd) {}

func stopGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill() // os.ErrProcessDone when gone: a clean cancel to exec
}

func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}
