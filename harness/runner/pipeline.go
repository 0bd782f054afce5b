package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/broker"
	"github.com/wiregate/wiregate/harness/cases"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/pipeline"
	"github.com/wiregate/wiregate/harness/roundtrip"
)

func init() {
	Register("pipeline", runPipeline)
	Register("pipeline-fill", runPipelineFill)
	Register("pipeline-consume", runPipelineConsume)
	Register(broker.EmbeddedSubcommand, func(ctx context.Context, env *Env, args []string) error {
		return broker.ServeEmbedded(ctx, env.Stdout)
	})
}

// brokerFlags locate an already running broker (cmd/wiregate starts it).
type brokerFlags struct {
	brokers, kind string
	n             int64
}

func (b *brokerFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&b.brokers, "brokers", "", "host:port,… of a running broker")
	fs.StringVar(&b.kind, "broker-kind", "external", "redpanda, embedded or external (for the report)")
	fs.Int64Var(&b.n, "n", 200000, "backlog size N")
}

func (b *brokerFlags) addrs() ([]string, error) {
	if b.brokers == "" {
		return nil, exitcode.BadInput("--brokers: no broker address given")
	}
	return broker.ParseAddrs(b.brokers)
}

// consumerCommand starts this same program as the capped consumer of one
// case, with the selection that reproduces exactly the produced records.
func consumerCommand(c *cases.Case, sel Selection) func(context.Context, pipeline.ConsumerSpec) *exec.Cmd {
	return func(ctx context.Context, spec pipeline.ConsumerSpec) *exec.Cmd {
		self, err := os.Executable()
		if err != nil {
			self = os.Args[0]
		}
		args := []string{"pipeline-consume", "--messages", c.Subject.Name(), "--formats", c.Format.Name, "--avro", sel.Avro}
		if sel.Samples != "" {
			args = append(args, "--samples", sel.Samples)
		}
		return exec.Command(self, append(append(args, "--"), spec.Args()...)...)
	}
}

// runPipeline measures every case end to end (fill, decoded drain, raw
// drain, delete): `wiregate pipeline`.
func runPipeline(ctx context.Context, env *Env, args []string) error {
	var sel Selection
	var bf brokerFlags
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	sel.AddFlags(fs)
	bf.add(fs)
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := parse(fs, args); err != nil {
		return err
	}
	addrs, err := bf.addrs()
	if err != nil {
		return err
	}
	if bf.n <= 0 || bf.n > pipeline.MaxN {
		return exitcode.BadInput("--n %d: want a backlog from 1 to %d records", bf.n, pipeline.MaxN)
	}
	cs, err := sel.CheckedCases(env)
	if err != nil {
		return err
	}
	var results []pipeline.Result
	for _, c := range cs {
		res, err := pipeline.Run(ctx, pipeline.Options{Brokers: addrs, BrokerKind: bf.kind,
			Message: c.Subject.Name(), Format: c.Format.Name, N: bf.n, Payloads: c.Encoded,
			ConsumerCommand: consumerCommand(c, sel)})
		if err != nil {
			return err
		}
		if !*asJSON {
			fmt.Fprintln(env.Stdout, res.Line())
		}
		results = append(results, res)
	}
	if *asJSON {
		return writeJSON(env.Stdout, results)
	}
	return nil
}

// runPipelineFill creates and fills one backlog per case and prints them as
// JSON; the caller drains them (pipeline-consume) and deletes them.
func runPipelineFill(ctx context.Context, env *Env, args []string) error {
	var sel Selection
	var bf brokerFlags
	fs := flag.NewFlagSet("pipeline-fill", flag.ContinueOnError)
	sel.AddFlags(fs)
	bf.add(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	addrs, err := bf.addrs()
	if err != nil {
		return err
	}
	cs, err := sel.CheckedCases(env)
	if err != nil {
		return err
	}
	var backlogs []pipeline.Backlog
	for _, c := range cs {
		b, err := pipeline.Fill(ctx, pipeline.Options{Brokers: addrs, BrokerKind: bf.kind,
			Message: c.Subject.Name(), Format: c.Format.Name, N: bf.n, Payloads: c.Encoded})
		if err != nil {
			for _, done := range backlogs {
				_ = done.Delete(ctx)
			}
			return err
		}
		backlogs = append(backlogs, b)
	}
	return writeJSON(env.Stdout, backlogs)
}

// runPipelineConsume is the capped consumer process: selection flags, then
// "--", then the consumer spec.
func runPipelineConsume(ctx context.Context, env *Env, args []string) error {
	i := 0
	for i < len(args) && args[i] != "--" {
		i++
	}
	if i == len(args) {
		return exitcode.BadInput("pipeline-consume: want <selection flags> -- <consumer flags>")
	}
	var sel Selection
	fs := flag.NewFlagSet("pipeline-consume", flag.ContinueOnError)
	sel.AddFlags(fs)
	if err := parse(fs, args[:i]); err != nil {
		return err
	}
	cs, err := sel.Cases(env)
	if err != nil {
		return err
	}
	if len(cs) != 1 {
		return exitcode.BadInput("pipeline-consume: select exactly one message and format, got %d", len(cs))
	}
	code := pipeline.ConsumerMain(ctx, args[i+1:], decoder(cs[0]), env.Stdout, os.Stderr)
	if code != 0 {
		return &exitcode.Error{Code: code, Err: errors.New("consumer failed")}
	}
	return nil
}

// decoder decodes every record into one reused typed value, and checks the
// first pool-size records against the records the producer encoded: the
// pipeline's figure is only reported for records that decode to what was
// sent.
func decoder(c *cases.Case) pipeline.Decoder {
	v := c.Format.NewValue(c.Subject)
	n := int64(len(c.Records))
	return func(offset int64, payload []byte) error {
		if err := c.Codec.Decode(payload, v); err != nil {
			return fmt.Errorf("%s record at offset %d: %w", c.Name(), offset, err)
		}
		if offset < n {
			if got := c.Format.ToProto(c.Subject, v); !proto.Equal(got, c.Records[offset]) {
				return fmt.Errorf("%s record at offset %d decodes differently from what was produced: %s", c.Name(), offset,
					roundtrip.FirstDiff(c.Records[offset].ProtoReflect(), got.ProtoReflect(), ""))
			}
		}
		return nil
	}
}
