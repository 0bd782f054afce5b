package subcmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Interrupted is the cause of a command's context when a signal stopped it.
// Its text, "interrupted by SIGINT", is what the report and the error line
// say.
type Interrupted struct{ Signal os.Signal }

func (i Interrupted) Error() string {
	name := i.Signal.String()
	if s, ok := i.Signal.(syscall.Signal); ok && unix.SignalName(s) != "" {
		name = unix.SignalName(s)
	}
	return "interrupted by " + name
}

// signals are the ones that stop a command: Ctrl-C, and what a cancelled CI
// job (or the action forwarding it) sends.
var signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// notifyContext is signal.NotifyContext with the signal as the cause, and a
// deadline for the whole program: grace after the first signal it exits
// with code 2 whatever the command is doing. Later signals are caught and
// ignored: GitHub sends SIGTERM 7.5 s after SIGINT, and the cleanup the
// first one started (children, topics, the report) must not be cut short
// by the second.
func notifyContext(parent context.Context, program string, grace time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, signals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cancel(Interrupted{Signal: sig})
		case <-done:
			return
		}
		timer := time.NewTimer(grace)
		defer timer.Stop()
		for {
			select {
			case <-sigs:
			case <-done:
				return
			case <-timer.C:
				if grace > 0 {
					fmt.Fprintf(os.Stderr, "%s: %v; still stopping %s later, exiting now\n", program, context.Cause(ctx), grace)
				} else {
					fmt.Fprintf(os.Stderr, "%s: %v\n", program, context.Cause(ctx))
				}
				os.Exit(exitcode.Unusable)
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
