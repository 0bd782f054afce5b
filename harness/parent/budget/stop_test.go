package budget

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// atomicClock is a fake clock Stop's goroutine may read while a test moves it.
type atomicClock struct {
	start time.Time
	ns    atomic.Int64
}

func (c *atomicClock) now() time.Time        { return c.start.Add(time.Duration(c.ns.Load())) }
func (c *atomicClock) spend(d time.Duration) { c.ns.Add(int64(d)) }
func ended(ctx context.Context, within time.Duration) bool {
	select {
	case <-ctx.Done():
		return true
	case <-time.After(within):
		return false
	}
}

// Stop ends its context when the budget's clock, not the machine's,
// reaches the deadline: an hour of the budget's clock passing in an
// instant ends it at once, and it stays open while the clock stands still
// short of the deadline however long the machine waits. Its cause says
// so; a parent's end is not the deadline.
func TestStopEndsAtTheBudgetsDeadlineOnItsClock(t *testing.T) {
	c := &atomicClock{start: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	b := Budget{Start: c.start, Total: time.Hour, Now: c.now}
	ctx, stop := b.Stop(context.Background())
	defer stop()
	c.spend(b.Total - Reserve - time.Second)
	if ended(ctx, 10*stopPoll) || Stopped(ctx) {
		t.Fatal("ended a second before the deadline")
	}
	c.spend(time.Second)
	if !ended(ctx, 10*stopPoll) {
		t.Fatal("still open at the deadline")
	}
	if !Stopped(ctx) || !errors.Is(context.Cause(ctx), ErrDeadline) {
		t.Fatalf("cause %v, want the deadline", context.Cause(ctx))
	}

	b.Total = 2 * time.Hour // the deadline ahead again
	parent, cancel := context.WithCancel(context.Background())
	ctx, stop = b.Stop(parent)
	defer stop()
	cancel()
	if !ended(ctx, 10*stopPoll) || Stopped(ctx) {
		t.Fatalf("a parent's end: ended %v, cause %v", ctx.Err(), context.Cause(ctx))
	}
	ctx, stop = b.Stop(context.Background())
	stop()
	if Stopped(ctx) {
		t.Fatal("stop() is not the deadline")
	}
}
