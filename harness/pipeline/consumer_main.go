package pipeline

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// ConsumerSpec is what Run asks a consumer process to drain. Args and
// ParseConsumerArgs carry it across the process boundary as flags.
type ConsumerSpec struct {
	Brokers []string
	Topic   string
	N       int64
	Raw     bool // drain without decoding
	Timeout time.Duration
	Idle    time.Duration
}

// Args renders the spec as flags for ParseConsumerArgs.
func (s ConsumerSpec) Args() []string {
	return []string{
		"-brokers", strings.Join(s.Brokers, ","),
		"-topic", s.Topic,
		"-n", fmt.Sprint(s.N),
		fmt.Sprintf("-raw=%t", s.Raw),
		"-timeout", s.Timeout.String(),
		"-idle", s.Idle.String(),
	}
}

// ParseConsumerArgs reads the flags Args wrote.
func ParseConsumerArgs(args []string) (ConsumerSpec, error) {
	var (
		s       ConsumerSpec
		brokers string
	)
	fs := flag.NewFlagSet("pipeline consumer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&brokers, "brokers", "", "seed brokers host:port,…")
	fs.StringVar(&s.Topic, "topic", "", "topic to drain")
	fs.Int64Var(&s.N, "n", 0, "records expected")
	fs.BoolVar(&s.Raw, "raw", false, "drain without decoding")
	fs.DurationVar(&s.Timeout, "timeout", 0, "whole drain")
	fs.DurationVar(&s.Idle, "idle", 0, "longest wait for the next record")
	if err := fs.Parse(args); err != nil {
		return s, fmt.Errorf("pipeline consumer: %w", err)
	}
	if brokers == "" || s.Topic == "" || s.N <= 0 || fs.NArg() > 0 {
		return s, fmt.Errorf("pipeline consumer: want -brokers, -topic and -n > 0 (and nothing else), got %q", args)
	}
	s.Brokers = strings.Split(brokers, ",")
	return s, nil
}

// Options turns the spec into Consume's options; dec is ignored for a raw drain.
func (s ConsumerSpec) Options(dec Decoder) ConsumeOptions {
	if s.Raw {
		dec = nil
	}
	return ConsumeOptions{Brokers: s.Brokers, Topic: s.Topic, N: s.N, Decode: dec, Timeout: s.Timeout, Idle: s.Idle}
}

// ConsumerMain is the body of a consumer process: parse args (ConsumerSpec's
// flags), drain, print the ConsumeResult as one JSON line on stdout, and
// return the exit code (0, or 1 with one line on stderr).
func ConsumerMain(ctx context.Context, args []string, dec Decoder, stdout, stderr io.Writer) int {
	spec, err := ParseConsumerArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	res, err := Consume(ctx, spec.Options(dec))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		fmt.Fprintln(stderr, "pipeline consumer: writing the result:", err)
		return 1
	}
	return 0
}
