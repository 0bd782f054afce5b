package gate

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/wiregate/wiregate/harness/parent/budget"
)

// lanes is how many units a pool runs at once: Narrow until Widen closes,
// then Workers; Narrow 0 is Workers from the start. The counts beside the
// bench rounds run narrow, on the CPUs the timings leave, and widen when
// the rounds end.
type lanes struct {
	Workers, Narrow int
	Widen           <-chan struct{}
}

// pool runs units on up to l's lanes at once, in order: the exact stages'
// worker pool. A unit starts when a worker is free and the meter lets it
// (budget.Meter, by price(u)); the first unit the meter refuses stops the
// pool from starting any more, so what the budget cuts is always the last
// units. The first `always` units start whatever the meter says (a stage
// that must judge something). It returns how many units started and the
// first error, which cancels the units still running. A nil meter cuts
// nothing.
func pool[U any](ctx context.Context, l lanes, meter *budget.Meter, always int, units []U, price func(U) time.Duration,
	run func(context.Context, U) error) (started int, err error) {
	g, gctx := errgroup.WithContext(ctx)
	workers := max(l.Workers, 1)
	slots := make(chan struct{}, workers)
	if held := workers - l.Narrow; l.Narrow > 0 && held > 0 {
		// Slots held until Widen: the units only ever see the rest.
		for range held {
			slots <- struct{}{}
		}
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-l.Widen:
				for range held {
					<-slots
				}
			case <-done:
			}
		}()
	}
dispatch:
	for i, u := range units {
		select {
		case slots <- struct{}{}:
		case <-gctx.Done():
			break dispatch
		}
		done := func() {}
		if meter != nil {
			d, ok := meter.Start(price(u))
			switch {
			case ok:
				done = d
			case i < always:
				done = meter.Force(price(u))
			default:
				<-slots
				break dispatch
			}
		}
		started++
		g.Go(func() error {
			defer func() { <-slots }()
			if err := run(gctx, u); err != nil {
				return err
			}
			done()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return started, err
	}
	return started, ctx.Err()
}
