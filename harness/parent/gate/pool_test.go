package gate

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
)

// The pool never runs more than workers units at once, runs them all when
// the meter lets it, and stops starting at the first unit the meter
// refuses: what is cut is the tail.
func TestPoolBoundsWorkersAndCutsTheTail(t *testing.T) {
	var running, most atomic.Int32
	units := make([]int, 12)
	for i := range units {
		units[i] = i
	}
	started, err := pool(context.Background(), lanes{Workers: 3}, nil, 0, units, nil, func(ctx context.Context, u int) error {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		running.Add(-1)
		return nil
	})
	if err != nil || started != 12 || most.Load() > 3 || most.Load() < 2 {
		t.Fatalf("started %d, at most %d at once, err %v", started, most.Load(), err)
	}

	// A fake clock the units move: each takes its price; the deadline
	// leaves room for the first four prices of 10 s with one worker.
	var mu sync.Mutex
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	meter := budget.Budget{Now: clock}.Meter(now.Add(45 * time.Second))
	var ran []int
	started, err = pool(context.Background(), lanes{Workers: 1}, meter, 0, units, func(int) time.Duration { return 10 * time.Second },
		func(ctx context.Context, u int) error {
			mu.Lock()
			now = now.Add(10 * time.Second)
			ran = append(ran, u)
			mu.Unlock()
			return nil
		})
	if err != nil || started != 4 || len(ran) != 4 || ran[3] != 3 {
		t.Fatalf("started %d, ran %v, err %v", started, ran, err)
	}
	// Past the deadline only the units that always start run.
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	started, err = pool(context.Background(), lanes{Workers: 2}, meter, 1, units, func(int) time.Duration { return time.Second },
		func(context.Context, int) error { return nil })
	if err != nil || started != 1 {
		t.Fatalf("past the deadline: started %d, err %v", started, err)
	}
}

// The first error stops the pool and cancels the units still running.
func TestPoolStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("boom")
	var cancelled atomic.Int32
	_, err := pool(context.Background(), lanes{Workers: 2}, nil, 0, []int{0, 1, 2, 3}, nil, func(ctx context.Context, u int) error {
		if u == 0 {
			return boom
		}
		select {
		case <-ctx.Done():
			cancelled.Add(1)
			return ctx.Err()
		case <-time.After(5 * time.Second):
			return nil
		}
	})
	if !errors.Is(err, boom) || cancelled.Load() == 0 {
		t.Fatalf("err %v, cancelled %d", err, cancelled.Load())
	}
}

// Narrow lanes run that many units at once until Widen closes, then
// Workers: the counts beside the bench rounds keep to the CPUs the timings
// leave, and take them all when the rounds end.
func TestPoolRunsNarrowUntilWidened(t *testing.T) {
	widen := make(chan struct{})
	var running, finished atomic.Int32
	var mu sync.Mutex
	var widened bool
	mostNarrow, mostWide := int32(0), int32(0)
	units := make([]int, 16)
	started, err := pool(context.Background(), lanes{Workers: 3, Narrow: 1, Widen: widen}, nil, 0, units, nil, func(ctx context.Context, u int) error {
		n := running.Add(1)
		mu.Lock()
		if widened {
			mostWide = max(mostWide, n)
		} else {
			mostNarrow = max(mostNarrow, n)
		}
		mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		running.Add(-1)
		if finished.Add(1) == 4 {
			mu.Lock()
			widened = true
			mu.Unlock()
			close(widen)
		}
		return nil
	})
	if err != nil || started != 16 {
		t.Fatalf("started %d, err %v", started, err)
	}
	if mostNarrow != 1 || mostWide < 2 || mostWide > 3 {
		t.Fatalf("at most %d at once before widening (want 1), %d after (want 2 or 3)", mostNarrow, mostWide)
	}
}
