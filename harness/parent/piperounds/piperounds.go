// Package piperounds is the pipeline measurement's orchestration, in the
// parent: start the broker; size each row's backlogs by count, by bytes
// and by precision (Backlogs); then one row (message and format) at a time: fill one
// constant backlog per side (each side's bench program, pipeline-fill),
// drain each once raw (it warms the broker's read path so the first
// decoded round does not pay the first read, and gives the fixed
// per-record floor), drain them decoded in rounds, the sides back to back
// in ABBA order, and delete them; finally delete the run's topics and
// close the broker, also when the run fails or is interrupted. One row's
// backlogs at a time keep the broker's memory bounded by the byte budget,
// whatever the number of messages. The gate runs it with two sides (base,
// head), `wiregate pipeline` with one.
package piperounds

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/parent/interleave"
	"github.com/wiregate/wiregate/harness/parent/redpanda"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/pipeline"
)

// cleanupTimeout bounds deleting the run's topics. The cleanup runs with a
// fresh context (the run's may be cancelled): an interrupted gate must
// still be gone within 10 s.
const cleanupTimeout = 3 * time.Second

// Side is one bench program and what it measures.
type Side struct {
	Name      string // "base", "head": names the side in errors and in its topics
	Program   *benchprog.Program
	Selection benchprog.Selection
	// Sizes are the side's exact sizes (the gate's sizes stage); they list
	// its rows and size its backlogs. Nil: Run measures them.
	Sizes []benchprog.Size
}

// Options is one pipeline measurement.
type Options struct {
	// Sides are measured in this order, flipped every turn (ABBA). The last
	// side's program serves the embedded broker.
	Sides  []Side
	Broker string // broker.Start's spec: auto, redpanda, embedded, host:port,…
	N      int64  // records per backlog, at most
	// Bytes is the byte budget of one backlog (see Backlogs); 0: none.
	Bytes int64
	// Rounds is the most decoded drains per side and backlog. With Alpha > 0
	// there are fewer: what Rounds gives for the rows and Alpha.
	Rounds int
	Alpha  float64
	// Family is how many rows the verdict's Holm family of pipeline tests
	// holds (a sharded gate's is the whole change's); 0: this run's rows.
	Family int
	Log    func(format string, args ...any)
	// Schedule says what each row may do within the gate's time budget
	// (budget.PipelineForecast); nil: every row as asked.
	Schedule Schedule
	// First are the messages measured first, in this order (the gate's
	// changed messages: when the budget runs out, the rows not timed are
	// the others). The rest follow sorted.
	First []string
	// Unchanged are the messages whose schema is identical on both sides
	// (their rows cannot fail the gate): at most UnchangedRounds rounds.
	Unchanged       map[string]bool
	UnchangedRounds int
	// Compression is the producers' batch codec; empty: franz-go's default.
	Compression string
	// Drain sizes each backlog to what a drain of budget.DrainTarget
	// needs, when that is fewer records than N or Bytes allow (Backlogs).
	Drain bool
	// Cut says whether ctx ended as a cut, not an error: the gate's time
	// budget's deadline (budget.Stopped). The row then draining keeps its
	// whole rounds (a round one side did not finish is dropped), and the
	// rows after are asked of the Schedule as usual, which has no time
	// left for them. Nil: every end of ctx is an error.
	Cut func(context.Context) bool
	// Enough, after each whole ABBA pair of a row's decoded rounds, says
	// whether the row has been drained enough (the gate's rule, from each
	// side's records/s so far): its rounds stop there. nil: every round
	// planned.
	Enough func(key string, base, head []float64, planned int) bool
}

// Schedule decides what each row does; Run asks it and does that. Keys
// are "message/format".
type Schedule interface {
	// Row is the row's backlog and decoded rounds; ok false: not timed.
	Row(key string) (n int64, rounds int, ok bool)
	// Fill is the row's fill and raw drain starting (done: it ended).
	Fill(key string, n int64) (done func(), ok bool)
	// Round is one decoded round of the row starting.
	Round(key string, n int64, round int) (done func(), ok bool)
	// Untimed are the rows it left out, and Note what it cut.
	Untimed() []string
	Note() string
}

// Samples are one side's drains of one backlog.
type Samples struct {
	RPS          []float64 // records/s, one per decoded round
	NsPerMsg     []float64 // ns/record, one per decoded round
	RawNsPerMsg  float64   // the raw drain's ns/record
	PeakRSSBytes int64     // the largest consumer peak RSS
	Cap          string    // the consumer's cap, as it observed it
}

// Row is one message and format, with each side's samples by side name (a
// side without this message is absent).
type Row struct {
	Message, Format string
	Sides           map[string]*Samples
	// N is the records each of its backlogs held (the row's Backlog, or
	// fewer when the schedule cut it).
	N int64
}

// Key is the row's key in Backlogs, schedules and logs.
func (r Row) Key() string { return RowKey(r.Message, r.Format) }

// wholeRounds keeps the decoded rounds every side finished: a round one
// side did not finish (a drain stopped) would unbalance the ABBA order.
func (r *Row) wholeRounds() {
	n := -1
	for _, s := range r.Sides {
		if n < 0 || len(s.RPS) < n {
			n = len(s.RPS)
		}
	}
	for _, s := range r.Sides {
		s.RPS, s.NsPerMsg = s.RPS[:max(n, 0)], s.NsPerMsg[:max(n, 0)]
	}
}

// Result is a whole measurement.
type Result struct {
	Broker       string // broker kind: redpanda, embedded or external
	BrokerReason string
	N            int64 // the count asked for
	Bytes        int64 // the byte budget asked for
	// Backlogs are each row's N and why, by RowKey.
	Backlogs map[string]Backlog
	Rounds   int
	Rows     []Row // sorted by message, then format
	// BrokerPeakRSSBytes is the embedded broker's peak RSS; 0 for a broker
	// in a container or elsewhere (not measured).
	BrokerPeakRSSBytes int64
	// Untimed are the rows ("message/format") the deadline left no time
	// for; Cut says what the deadline cut, empty when nothing.
	Untimed []string
	Cut     string
	// Stopped is what Options.Cut stopped (a row's key, or the broker's
	// start); empty when nothing.
	Stopped string
}

// Run measures o.Sides through the broker o.Broker names. Every drain is
// verified (count, checksum, the first pool-size records decoded back);
// any failure is the error, never a figure.
func Run(ctx context.Context, o Options) (res *Result, err error) {
	if len(o.Sides) == 0 {
		return nil, errors.New("pipeline: no side to measure")
	}
	if err := pipeline.CheckN(o.N); err != nil {
		return nil, err
	}
	if err := CheckRounds(o.Rounds); err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	var all []benchprog.Size
	o.Sides = append([]Side(nil), o.Sides...) // Sizes are filled in below: the caller's slice stays as it was
	for i, s := range o.Sides {
		if s.Sizes == nil {
			if o.Sides[i].Sizes, err = s.Program.Sizes(ctx, benchprog.SizesFlags{Selection: s.Selection}); err != nil {
				return nil, wrap(o.Sides, s, err)
			}
		}
		all = append(all, o.Sides[i].Sizes...)
	}
	planned := o.Rows()
	r := &run{o: &o, backlogs: Backlogs(o.N, o.Bytes, o.Drain, all), rows: rows(o.Sides)}
	o.Rounds = Rounds(cmp.Or(o.Family, len(r.rows)), o.Rounds, o.Alpha)

	if o.Cut != nil && o.Cut(ctx) {
		return r.cutBeforeStart(planned, ""), nil // the deadline passed before the stage began
	}
	last := o.Sides[len(o.Sides)-1].Program
	b, err := broker.Start(ctx, o.Broker, broker.WithDocker(redpanda.Docker{}), broker.WithEmbeddedCommand(last.EmbeddedBrokerCommand))
	if err != nil && o.Cut != nil && o.Cut(ctx) {
		return r.cutBeforeStart(planned, "the broker's start"), nil
	}
	if err != nil {
		return nil, err
	}
	o.Log("wiregate: broker %s at %s (%s)", b.Kind, strings.Join(b.Addrs, ","), b.Reason)
	r.b, r.prefix = b, pipeline.NewRunPrefix()
	r.ctx, r.consumers = ctx, map[string]*pipeline.Consumer{}
	defer func() {
		cerr := errors.Join(r.closeConsumers(), cleanup(ctx, b, r.prefix))
		if res != nil {
			res.BrokerPeakRSSBytes = b.PeakRSSBytes()
		}
		if cerr != nil {
			o.Log("wiregate: pipeline cleanup: %v", cerr)
			if err == nil {
				err = cerr
			} else { // one line: the run's error first, the cleanup's after
				err = fmt.Errorf("%w; and %w", err, cerr)
			}
		}
	}()
	byKey := map[string]*Row{}
	for _, row := range r.rows {
		byKey[row.Key()] = row
	}
	for _, p := range planned {
		row, n, rounds := byKey[p.Key()], p.N, p.Rounds
		if o.Schedule != nil {
			var ok bool
			if n, rounds, ok = o.Schedule.Row(row.Key()); !ok {
				row.Sides = nil
				continue
			}
		}
		if err := r.measure(ctx, row, n, rounds); err != nil {
			if o.Cut == nil || !o.Cut(ctx) {
				return nil, err
			}
			row.wholeRounds()
			r.stopped = row.Key()
		}
	}
	return r.result(), nil
}

// Rows are the rows Run measures, in the order it measures them, each
// with its backlog and the decoded rounds asked for (what Rounds gives for the
// rows and Alpha; at most UnchangedRounds for an unchanged message): what
// a Schedule prices. The sides' Sizes must be filled.
func (o Options) Rows() []PlannedRow {
	var all []benchprog.Size
	for _, s := range o.Sides {
		all = append(all, s.Sizes...)
	}
	bl := Backlogs(o.N, o.Bytes, o.Drain, all)
	rs := rows(o.Sides)
	rounds := Rounds(cmp.Or(o.Family, len(rs)), o.Rounds, o.Alpha)
	var out []PlannedRow
	for _, row := range prioritized(rs, o.First) {
		r := rounds
		if o.Unchanged[row.Message] {
			r = max(1, min(rounds, o.UnchangedRounds))
		}
		out = append(out, PlannedRow{Message: row.Message, Format: row.Format, N: bl[row.Key()].N, Rounds: r})
	}
	return out
}

// PlannedRow is one row as Run will ask its schedule for it.
type PlannedRow struct {
	Message, Format string
	N               int64
	Rounds          int
}

// Key is the row's key in Backlogs, schedules and logs.
func (p PlannedRow) Key() string { return RowKey(p.Message, p.Format) }

// prioritized orders rows by the messages in first, then as they are.
func prioritized(rows []*Row, first []string) []*Row {
	out := append([]*Row(nil), rows...)
	rank := func(m string) int {
		if i := slices.Index(first, m); i >= 0 {
			return i
		}
		return len(first)
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Message) < rank(out[j].Message) })
	return out
}

// cleanup deletes the run's topics, then closes the broker (a broker Start
// started outlives ctx for exactly this).
func cleanup(ctx context.Context, b *broker.Broker, prefix string) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	return errors.Join(pipeline.DeleteTopics(cctx, b.Addrs, prefix), b.Close())
}

type run struct {
	o        *Options
	b        *broker.Broker
	prefix   string
	backlogs map[string]Backlog
	rows     []*Row // sorted by message, then format; Sides filled as measured
	// consumers are each side's long-lived consumer, by side name, started
	// at the side's first drain on ctx (the run's) and closed at its end.
	ctx       context.Context
	consumers map[string]*pipeline.Consumer
	stopped   string // the row Cut stopped; empty when none
}

// consumer is side s's consumer, started at its first drain.
func (r *run) consumer(s Side) (*pipeline.Consumer, error) {
	if c := r.consumers[s.Name]; c != nil {
		return c, nil
	}
	c, err := pipeline.StartConsumer(s.Program.ConsumerServerCommand(r.ctx, benchprog.ConsumerFlags{Selection: s.Selection}))
	if err != nil {
		return nil, err
	}
	r.consumers[s.Name] = c
	return c, nil
}

// closeConsumers ends every side's consumer.
func (r *run) closeConsumers() error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(r.consumers)) {
		if err := r.consumers[name].Close(); err != nil {
			errs = append(errs, fmt.Errorf("%s consumer: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// drain is one drain of b by side s's consumer.
func (r *run) drain(ctx context.Context, s Side, b pipeline.Backlog, raw bool) (pipeline.ConsumeResult, error) {
	c, err := r.consumer(s)
	if err != nil {
		return pipeline.ConsumeResult{}, err
	}
	return c.Drain(ctx, b, raw)
}

// rows are every side's message and format pairs, sorted by message, then
// format, each with the sides that have it (samples to come).
func rows(sides []Side) []*Row {
	byKey := map[string]*Row{}
	var out []*Row
	for _, s := range sides {
		for _, sz := range s.Sizes {
			k := RowKey(sz.Message, sz.Format)
			if byKey[k] == nil {
				byKey[k] = &Row{Message: sz.Message, Format: sz.Format, Sides: map[string]*Samples{}}
				out = append(out, byKey[k])
			}
			byKey[k].Sides[s.Name] = &Samples{}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Message < b.Message || a.Message == b.Message && a.Format < b.Format
	})
	return out
}

// measure is one row: fill each side's backlog and drain it raw, drain
// them decoded round by round, then delete them, so the broker holds one
// row's backlogs at a time. The sides' drains of a round run back to back
// and which goes first flips every round (ABBA): drift in the machine or
// the broker then hits every side alike. Draining all base backlogs before
// all head backlogs once showed a false 17% "regression" between identical
// programs.
func (r *run) measure(ctx context.Context, row *Row, n int64, rounds int) error {
	key := row.Key()
	bl := r.backlogs[key]
	why := bl.Why()
	if n < bl.N {
		why = fmt.Sprintf("N = %d (the time budget)", n)
	}
	row.N = n
	r.o.Log("wiregate: pipeline %s: %s", key, why)
	done := func() {}
	if s := r.o.Schedule; s != nil {
		var ok bool
		if done, ok = s.Fill(key, n); !ok {
			done = func() {} // the plan fitted this row just now: fill it all the same
		}
	}
	backlogs := map[string]pipeline.Backlog{}
	for _, s := range r.o.Sides {
		if row.Sides[s.Name] == nil {
			continue
		}
		filled, err := s.Program.Fill(ctx, benchprog.FillFlags{Selection: s.Selection.Only(row.Message, row.Format), Brokers: r.b.Addrs,
			N: n, TopicPrefix: r.prefix + s.Name + "-", Compression: r.o.Compression})
		if err == nil && len(filled) != 1 {
			err = fmt.Errorf("pipeline-fill of %s made %d backlogs, want 1", key, len(filled))
		}
		if err != nil {
			return r.wrap(s, err)
		}
		res, err := r.drain(ctx, s, filled[0], true)
		if err != nil {
			return r.wrap(s, err)
		}
		row.Sides[s.Name].RawNsPerMsg = res.NsPerMsg
		backlogs[s.Name] = filled[0]
	}
	done()
	for round := 0; round < rounds; round++ {
		done := func() {}
		if s := r.o.Schedule; s != nil {
			var ok bool
			if done, ok = s.Round(key, n, round); !ok {
				break
			}
		}
		for _, i := range interleave.Order(len(r.o.Sides), round) {
			s := r.o.Sides[i]
			b, ok := backlogs[s.Name]
			if !ok {
				continue
			}
			res, err := r.drain(ctx, s, b, false)
			if err != nil {
				return r.wrap(s, err)
			}
			ps := row.Sides[s.Name]
			ps.RPS = append(ps.RPS, res.RPS)
			ps.NsPerMsg = append(ps.NsPerMsg, res.NsPerMsg)
			ps.Cap = res.Cap
			ps.PeakRSSBytes = max(ps.PeakRSSBytes, res.PeakRSSBytes)
		}
		done()
		r.o.Log("wiregate: pipeline round %d/%d of %s", round+1, rounds, key)
		if base, head := row.Sides["base"], row.Sides["head"]; base != nil && head != nil && r.o.Enough != nil && (round+1)%2 == 0 && round+1 < rounds &&
			r.o.Enough(key, base.RPS, head.RPS, rounds) {
			break
		}
	}
	for _, s := range r.o.Sides {
		if b, ok := backlogs[s.Name]; ok {
			if err := b.Delete(ctx); err != nil {
				return r.wrap(s, err)
			}
		}
	}
	return nil
}

// wrap names the side in an error when there is more than one.
func (r *run) wrap(s Side, err error) error { return wrap(r.o.Sides, s, err) }

func wrap(sides []Side, s Side, err error) error {
	if len(sides) == 1 {
		return err
	}
	return fmt.Errorf("%s: %w", s.Name, err)
}

func (r *run) result() *Result {
	res := &Result{Broker: r.b.Kind, BrokerReason: r.b.Reason, N: r.o.N, Bytes: r.o.Bytes, Backlogs: r.backlogs, Rounds: r.o.Rounds}
	for _, row := range r.rows {
		if row.Sides != nil {
			res.Rows = append(res.Rows, *row)
		}
	}
	if s := r.o.Schedule; s != nil {
		res.Untimed, res.Cut = s.Untimed(), s.Note()
	}
	res.Stopped = r.stopped
	return res
}

// cutBeforeStart is the result when Cut ended ctx before the broker was
// up: no row drained, each asked of the schedule, which times none;
// stopped is what Cut stopped (empty: nothing had started).
func (r *run) cutBeforeStart(planned []PlannedRow, stopped string) *Result {
	res := &Result{N: r.o.N, Bytes: r.o.Bytes, Backlogs: r.backlogs, Rounds: r.o.Rounds, Stopped: stopped}
	if s := r.o.Schedule; s != nil {
		for _, p := range planned {
			s.Row(p.Key())
		}
		res.Untimed, res.Cut = s.Untimed(), s.Note()
	}
	return res
}
