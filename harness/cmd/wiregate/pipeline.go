package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/piperounds"
	"github.com/wiregate/wiregate/harness/program/pipeline"
)

func init() {
	register("pipeline", "end-to-end consumer throughput through a Kafka-API broker (--broker auto|redpanda|embedded|host:port, --rounds N)", cmdPipeline)
}

// localSide names the one side `wiregate pipeline` measures (in its topics).
const localSide = "local"

// cmdPipeline is the gate's pipeline stage for one side: the same fill, raw
// drain and decoded rounds (package piperounds), with a fixed number of
// rounds.
func cmdPipeline(ctx context.Context, args []string) error {
	var (
		spec, bytesText string
		compression     string
		n               int64
		rounds          int
		asJSON          bool
	)
	defaultN, _ := strconv.ParseInt(inputs.DefaultOf("pipeline-messages"), 10, 64)
	s, err := parseSchemaFlags("pipeline", args, func(fs *flag.FlagSet) {
		fs.StringVar(&spec, "broker", inputs.DefaultOf("broker"), "auto, redpanda, embedded, or host:port[,host:port]")
		fs.Int64Var(&n, "pipeline-messages", defaultN, "backlog size N (records per topic, at most)")
		fs.StringVar(&bytesText, "pipeline-bytes", inputs.DefaultOf("pipeline-bytes"), "byte budget of one backlog: a message of bigger records gets fewer than N")
		fs.IntVar(&rounds, "rounds", 1, fmt.Sprintf("decoded drains of every backlog (1 to %d); the figures are their medians", piperounds.MaxRounds))
		fs.BoolVar(&asJSON, "json", false, "print a JSON array")
		fs.StringVar(&compression, "compression", inputs.DefaultOf("compression"), "the producer's batch codec, as the gate's compression input: its first codec, none for no compression")
	})
	if err != nil {
		return err
	}
	if err := pipeline.CheckN(n); err != nil {
		return err
	}
	budget, err := pipeline.ParseBytes("--pipeline-bytes", bytesText)
	if err != nil {
		return err
	}
	if err := piperounds.CheckRounds(rounds); err != nil {
		return err
	}
	set, err := inputs.Parse(inputs.Map(map[string]string{"compression": compression}))
	if err != nil {
		return err
	}
	say := newSaid("pipeline")
	prog, sel, err := s.program(ctx, say)
	if err != nil {
		return err
	}
	res, err := piperounds.Run(ctx, piperounds.Options{
		Sides:  []piperounds.Side{{Name: localSide, Program: prog, Selection: sel}},
		Broker: spec, N: n, Bytes: budget, Rounds: rounds, Compression: set.ProducerCompression(),
		Log: func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) },
	})
	if err != nil {
		return err
	}
	sums := res.Summaries(localSide)
	for _, s := range sums {
		say.add(s.Message, s.Format)
	}
	if asJSON {
		if err := printJSON(sums); err != nil {
			return err
		}
	} else {
		for _, s := range sums {
			fmt.Println(s.Line())
		}
	}
	say.done("drained through the " + res.Broker + " broker")
	return nil
}
