package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/wiregate/wiregate/harness/broker"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/pipeline"
)

func init() {
	register("pipeline", "end-to-end consumer throughput through a Kafka-API broker (--broker auto|redpanda|embedded|host:port)", cmdPipeline)
	// The embedded broker runs in its own process (so a capped consumer
	// does not cap it too): this same binary, re-executed.
	register(broker.EmbeddedSubcommand, "(internal) serve franz-go's kfake broker; prints its address", func(ctx context.Context, args []string) error {
		return broker.ServeEmbedded(ctx, os.Stdout)
	})
}

func cmdPipeline(ctx context.Context, args []string) error {
	var s schemaFlags
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	s.add(fs)
	spec := fs.String("broker", "auto", "auto, redpanda, embedded, or host:port[,host:port]")
	n := fs.Int64("n", 200000, "backlog size N (records per topic)")
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *n <= 0 || *n > pipeline.MaxN {
		return exitcode.BadInput("--n %d: want a backlog from 1 to %d records", *n, pipeline.MaxN)
	}
	p, rargs, err := s.program(ctx)
	if err != nil {
		return err
	}
	b, err := broker.Start(ctx, *spec)
	if err != nil {
		return err
	}
	defer b.Close()
	fmt.Fprintf(os.Stderr, "wiregate pipeline: broker %s at %s (%s)\n", b.Kind, strings.Join(b.Addrs, ","), b.Reason)
	pargs := append(append([]string{"pipeline"}, rargs...), "--brokers", strings.Join(b.Addrs, ","), "--broker-kind", b.Kind, "--n", fmt.Sprint(*n))
	if *asJSON {
		pargs = append(pargs, "--json")
	}
	return runProgram(ctx, p.Binary, pargs, os.Stdout)
}
