//go:build !linux

package broker

import "os/exec"

// setParentDeathSignal: only Linux has Pdeathsig; elsewhere the child relies
// on seeing its stdin close.
func setParentDeathSignal(*exec.Cmd) {}
