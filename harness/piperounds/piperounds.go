// Package piperounds is the pipeline measurement's orchestration, in the
// parent: start the broker; fill one constant backlog per side, message and
// format (each side's bench program, pipeline-fill); drain each once raw
// (it warms the broker's read path so the first decoded round does not pay
// the first read, and gives the fixed per-record floor); then decoded
// drains in rounds, the sides' drains of one backlog back to back, in ABBA
// order; finally delete the run's topics and close the broker, also when
// the run fails or is interrupted. The gate runs it with two sides (base,
// head), `wiregate pipeline` with one.
package piperounds

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/broker"
	"github.com/wiregate/wiregate/harness/broker/redpanda"
	"github.com/wiregate/wiregate/harness/pipeline"
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
}

// Options is one pipeline measurement.
type Options struct {
	// Sides are measured in this order, flipped every turn (ABBA). The last
	// side's program serves the embedded broker.
	Sides  []Side
	Broker string // broker.Start's spec: auto, redpanda, embedded, host:port,…
	N      int64  // records per backlog
	// Rounds is the most decoded drains per side and backlog. With Alpha > 0
	// there are fewer: Plan's count for the rows and Alpha.
	Rounds int
	Alpha  float64
	Log    func(format string, args ...any)
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
}

// Result is a whole measurement.
type Result struct {
	Broker       string // broker kind: redpanda, embedded or external
	BrokerReason string
	N            int64
	Rounds       int
	Rows         []Row // sorted by message, then format
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
	last := o.Sides[len(o.Sides)-1].Program
	b, err := broker.Start(ctx, o.Broker, broker.WithDocker(redpanda.Docker{}), broker.WithEmbeddedCommand(last.EmbeddedBrokerCommand))
	if err != nil {
		return nil, err
	}
	o.Log("wiregate: broker %s at %s (%s)", b.Kind, strings.Join(b.Addrs, ","), b.Reason)
	prefix := pipeline.NewRunPrefix()
	defer func() {
		if cerr := cleanup(ctx, b, prefix); cerr != nil {
			o.Log("wiregate: pipeline cleanup: %v", cerr)
			if err == nil {
				err = cerr
			} else { // one line: the run's error first, the cleanup's after
				err = fmt.Errorf("%w; and %w", err, cerr)
			}
		}
	}()
	r := &run{o: &o, b: b, prefix: prefix, rows: map[string]*Row{}}
	if err := r.fill(ctx); err != nil {
		return nil, err
	}
	if err := r.rounds(ctx); err != nil {
		return nil, err
	}
	return r.result(), nil
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
	rows     map[string]*Row
	order    []string                               // row keys, first seen first
	backlogs map[string]map[string]pipeline.Backlog // row key → side name → backlog
}

// fill fills every side's backlogs, then drains each once raw.
func (r *run) fill(ctx context.Context) error {
	r.backlogs = map[string]map[string]pipeline.Backlog{}
	for _, s := range r.o.Sides {
		bls, err := s.Program.Fill(ctx, benchprog.FillFlags{Selection: s.Selection, Brokers: r.b.Addrs, N: r.o.N,
			TopicPrefix: r.prefix + s.Name + "-"})
		if err != nil {
			return r.wrap(s, err)
		}
		for _, bl := range bls {
			k := bl.Message + "/" + bl.Format
			if r.rows[k] == nil {
				r.rows[k] = &Row{Message: bl.Message, Format: bl.Format, Sides: map[string]*Samples{}}
				r.backlogs[k] = map[string]pipeline.Backlog{}
				r.order = append(r.order, k)
			}
			res, err := bl.Drain(ctx, true, consumer(s, bl))
			if err != nil {
				return r.wrap(s, err)
			}
			r.rows[k].Sides[s.Name] = &Samples{RawNsPerMsg: res.NsPerMsg}
			r.backlogs[k][s.Name] = bl
		}
	}
	return nil
}

// rounds drains every backlog decoded, round by round. The sides' drains of
// one backlog run back to back and which goes first flips every time
// (ABBA): drift in the machine or the broker over a round then hits every
// side alike. Draining all base backlogs before all head backlogs once
// showed a false 17% "regression" between identical programs.
func (r *run) rounds(ctx context.Context) error {
	r.o.Rounds = Plan(len(r.order), r.o.Rounds, r.o.Alpha)
	turn := 0
	for round := 0; round < r.o.Rounds; round++ {
		for _, k := range r.order {
			for _, s := range abba(r.o.Sides, turn) {
				bl, ok := r.backlogs[k][s.Name]
				if !ok {
					continue
				}
				res, err := bl.Drain(ctx, false, consumer(s, bl))
				if err != nil {
					return r.wrap(s, err)
				}
				ps := r.rows[k].Sides[s.Name]
				ps.RPS = append(ps.RPS, res.RPS)
				ps.NsPerMsg = append(ps.NsPerMsg, res.NsPerMsg)
				ps.Cap = res.Cap
				ps.PeakRSSBytes = max(ps.PeakRSSBytes, res.PeakRSSBytes)
			}
			turn++
		}
		r.o.Log("wiregate: pipeline round %d/%d", round+1, r.o.Rounds)
	}
	return nil
}

// wrap names the side in an error when there is more than one.
func (r *run) wrap(s Side, err error) error {
	if len(r.o.Sides) == 1 {
		return err
	}
	return fmt.Errorf("%s: %w", s.Name, err)
}

func (r *run) result() *Result {
	res := &Result{Broker: r.b.Kind, BrokerReason: r.b.Reason, N: r.o.N, Rounds: r.o.Rounds}
	for _, k := range r.order {
		res.Rows = append(res.Rows, *r.rows[k])
	}
	sort.Slice(res.Rows, func(i, j int) bool {
		a, b := res.Rows[i], res.Rows[j]
		return a.Message < b.Message || a.Message == b.Message && a.Format < b.Format
	})
	return res
}

// consumer starts side s's bench program as the capped consumer of a
// backlog, with the side's samples and Avro schemas so it decodes the
// records the fill produced.
func consumer(s Side, bl pipeline.Backlog) func(context.Context, pipeline.ConsumerSpec) *exec.Cmd {
	return func(ctx context.Context, spec pipeline.ConsumerSpec) *exec.Cmd {
		return s.Program.ConsumerCommand(ctx, benchprog.ConsumeFlags{Selection: s.Selection.Only(bl.Message, bl.Format), Spec: spec})
	}
}

// abba returns sides in order, reversed on odd turns.
func abba(sides []Side, turn int) []Side {
	if turn%2 == 0 {
		return sides
	}
	out := make([]Side, len(sides))
	for i, s := range sides {
		out[len(sides)-1-i] = s
	}
	return out
}
