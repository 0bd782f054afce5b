// Package exitcode carries wiregate's process exit codes through errors, so
// that library code can say "this is the user's input" without calling
// os.Exit, and cmd/ can turn any error into one line and the right code.
package exitcode

import (
	"errors"
	"fmt"
)

const (
	// OK: the command did what was asked (for a gate: it passed).
	OK = 0
	// Failed: the command ran and its answer is "no" (the gate failed, the
	// schemas are incompatible).
	Failed = 1
	// Unusable: wiregate itself could not run: bad input, a missing tool, an
	// unreachable broker. The message names the file or input and the fix.
	Unusable = 2
)

// Error is an error with an exit code attached.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// BadInput marks err as the user's input being wrong (exit code 2).
func BadInput(format string, args ...any) error {
	return &Error{Code: Unusable, Err: fmt.Errorf(format, args...)}
}

// Failf marks err as a negative answer (exit code 1).
func Failf(format string, args ...any) error {
	return &Error{Code: Failed, Err: fmt.Errorf(format, args...)}
}

// Code returns the exit code for err: 0 for nil, the attached code when there
// is one, and 2 otherwise (an error nobody classified is still wiregate being
// unable to run, never a silent pass).
func Code(err error) int {
	if err == nil {
		return OK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Unusable
}
