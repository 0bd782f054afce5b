package budget

import (
	"context"
	"errors"
	"time"
)

// ErrDeadline is the cause of a context Stop ended: the budget's deadline
// passed.
var ErrDeadline = errors.New("the time budget's deadline passed")

// stopPoll is how often, on the machine's clock, Stop reads the budget's:
// a unit running at the deadline is stopped within it (and within the
// deadline itself on the machine's clock).
const stopPoll = 20 * time.Millisecond

// Stop is ctx until the budget's clock reaches its deadline: then it ends,
// its cause ErrDeadline. The stages the plan may cut (the counts, the
// bench rounds, the pipeline) run their units in it. A meter lets a unit
// start when it ends by the deadline at the price the units before it
// took, but the first unit of a loop is priced by an estimate, and a
// machine slower than the estimates (a loaded runner; a test's fast clock)
// runs it past the deadline, as far as the estimate was wrong: that is
// what ends it instead. What a stopped unit measured is lost, and the
// stage says what it cut, as when its plan cuts. Read the clock, never the
// machine's timers: the budget's clock may run faster (Budget.Now).
func (b Budget) Stop(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		for {
			left := b.Left()
			if left <= 0 {
				cancel(ErrDeadline)
				return
			}
			t := time.NewTimer(min(left, stopPoll))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// Stopped says whether ctx ended because the budget's deadline passed
// (Stop), not for a signal or an error.
func Stopped(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrDeadline) }
