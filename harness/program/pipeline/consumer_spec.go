package pipeline

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// ConsumerSpec is what the parent asks a consumer process to drain. Args
// and Define carry it across the process boundary as flags (inside the
// bench program's pipeline-consume, see package benchprog).
type ConsumerSpec struct {
	Brokers []string
	Topic   string
	N       int64
	Raw     bool // drain without decoding
	Timeout time.Duration
	Idle    time.Duration
}

// Args renders the spec as the flags Define reads.
func (s ConsumerSpec) Args() []string {
	return []string{
		"--brokers", strings.Join(s.Brokers, ","),
		"--topic", s.Topic,
		"--n", fmt.Sprint(s.N),
		fmt.Sprintf("--raw=%t", s.Raw),
		"--timeout", s.Timeout.String(),
		"--idle", s.Idle.String(),
	}
}

// Define registers the spec's flags on fs.
func (s *ConsumerSpec) Define(fs *flag.FlagSet) {
	fs.Func("brokers", "seed brokers host:port,…", func(v string) error {
		s.Brokers = strings.Split(v, ",")
		return nil
	})
	fs.StringVar(&s.Topic, "topic", "", "topic to drain")
	fs.Int64Var(&s.N, "n", 0, "records expected")
	fs.BoolVar(&s.Raw, "raw", false, "drain without decoding")
	fs.DurationVar(&s.Timeout, "timeout", 0, "whole drain (default 1 min + 10 µs a record)")
	fs.DurationVar(&s.Idle, "idle", 0, "longest wait for the next record (default 20s)")
}

// Validate wants brokers, a topic and N > 0.
func (s *ConsumerSpec) Validate() error {
	if len(s.Brokers) == 0 || s.Topic == "" || s.N <= 0 {
		return exitcode.BadInput("pipeline consumer: want --brokers, --topic and --n > 0, got %q, %q, %d", s.Brokers, s.Topic, s.N)
	}
	return nil
}

// Options turns the spec into Consume's options; dec is ignored for a raw drain.
func (s ConsumerSpec) Options(dec Decoder) ConsumeOptions {
	if s.Raw {
		dec = nil
	}
	return ConsumeOptions{Brokers: s.Brokers, Topic: s.Topic, N: s.N, Decode: dec, Timeout: s.Timeout, Idle: s.Idle}
}
