package budget

import (
	"sync"
	"time"
)

// minCorrection bounds how far the meter trusts units that ran faster
// than priced: a quarter of the price at least, so one lucky unit does not
// let the rest start too late.
const minCorrection = 0.25

// Meter is the one answer to "may the next unit start" for every loop that
// spends time: a chunk of records, a chunk of sizes, one count, a bench
// round, a pipeline row or round. The loop asks May with the unit's price
// before starting it and tells Done what it took after. One rule
// extrapolates: a price is scaled by what the units done so far took over
// what they were priced at. Units may run at once (the exact stages' worker
// pool): each asks for itself, by its own price, and each is timed by
// itself. Safe for concurrent use.
type Meter struct {
	now      func() time.Time
	deadline time.Time

	mu           sync.Mutex
	priced, took time.Duration
}

// Meter starts a meter on b's clock that lets units start while they end
// by deadline.
func (b Budget) Meter(deadline time.Time) *Meter {
	return &Meter{now: b.Now, deadline: deadline}
}

// Deadline is when the metered units must be done.
func (m *Meter) Deadline() time.Time { return m.deadline }

// Left is what is left before the deadline (negative when past it).
func (m *Meter) Left() time.Duration { return m.deadline.Sub(m.now()) }

// Expect is what a unit priced at price will take, by the units done so far.
func (m *Meter) Expect(price time.Duration) time.Duration {
	return time.Duration(float64(price) * m.Correction())
}

// Correction is what the units done so far took over what they were
// priced at (1 before any is done).
func (m *Meter) Correction() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.priced <= 0 {
		return 1
	}
	return max(float64(m.took)/float64(m.priced), minCorrection)
}

// May says whether a unit priced at price may start now: whether, at the
// price the units so far suggest, it ends by the deadline.
func (m *Meter) May(price time.Duration) bool {
	return !m.now().Add(m.Expect(price)).After(m.deadline)
}

// Start is a unit starting now, when it may: done records what it took.
// ok is false (and done nil) when it may not.
func (m *Meter) Start(price time.Duration) (done func(), ok bool) {
	if !m.May(price) {
		return nil, false
	}
	return m.Force(price), true
}

// Force is a unit starting now whether it may or not (the first unit of a
// stage that must judge something): done records what it took.
func (m *Meter) Force(price time.Duration) (done func()) {
	start := m.now()
	return func() { m.Done(price, m.now().Sub(start)) }
}

// Done records that a unit priced at price took took.
func (m *Meter) Done(price, took time.Duration) {
	if price <= 0 {
		return // an unpriced unit says nothing about the prices
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.priced += price
	m.took += took
}
