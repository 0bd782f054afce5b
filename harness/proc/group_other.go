//go:build !linux

package proc

import (
	"os"
	"os/exec"
)

// OwnGroup: process groups and Pdeathsig are set up on Linux only (the
// platform wiregate measures on); elsewhere the child is stopped alone.
func OwnGroup(cmd *exec.Cmd) {}

func stopGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
