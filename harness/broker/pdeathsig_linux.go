package broker

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel kill the child when its parent
// thread dies, so a crashed harness leaves no broker behind.
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
