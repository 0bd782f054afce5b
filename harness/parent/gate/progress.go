package gate

import (
	"fmt"
	"sync"
	"time"
)

// progressEvery is how often a long stage says where it is.
const progressEvery = 10 * time.Second

// progress says on the log where a long stage is ("message 12 of 57",
// "round 3 of 10") whenever it moves on, and at least every progressEvery
// while one step takes long, so a reader of a CI log never waits a
// minute without a line.
type progress struct {
	log   func(string, ...any)
	stage string
	every time.Duration
	start time.Time

	mu   sync.Mutex
	what string
	last time.Time
	done chan struct{}
	once sync.Once
}

// newProgress starts reporting stage's progress; stop ends it.
func newProgress(log func(string, ...any), stage string, every time.Duration) *progress {
	p := &progress{log: log, stage: stage, every: every, start: time.Now(), done: make(chan struct{})}
	go p.tick()
	return p
}

// step says what the stage is doing now.
func (p *progress) step(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.what = fmt.Sprintf(format, args...)
	p.print()
}

func (p *progress) tick() {
	t := time.NewTicker(p.every / 2)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.mu.Lock()
			if p.what != "" && time.Since(p.last) >= p.every {
				p.print()
			}
			p.mu.Unlock()
		}
	}
}

// print writes the current step; p.mu is held.
func (p *progress) print() {
	p.last = time.Now()
	p.log("wiregate: %s: %s (%s)", p.stage, p.what, time.Since(p.start).Round(time.Second))
}

func (p *progress) stop() { p.once.Do(func() { close(p.done) }) }
