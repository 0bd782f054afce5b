package runner

import (
	"context"
	"fmt"
	"os"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/pipeline"
	"github.com/wiregate/wiregate/harness/program/roundtrip"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// runFill creates and fills one backlog per case and prints them as JSON;
// the parent drains them (pipeline-consume) and deletes them. Interrupted,
// it deletes what it filled; the parent deletes by the run's prefix too.
func runFill(ctx context.Context, env *Env, args []string) error {
	var f benchprog.FillFlags
	if err := benchprog.Parse(benchprog.CmdFill, &f, args); err != nil {
		return err
	}
	stream, err := checkedStream(env, f.Selection)
	if err != nil {
		return err
	}
	var backlogs []pipeline.Backlog
	err = stream(func(cs []*cases.Case) error {
		for _, c := range cs {
			b, err := pipeline.Fill(ctx, pipeline.FillOptions{Brokers: f.Brokers, TopicPrefix: f.TopicPrefix, Compression: f.Compression,
				Message: c.Subject.Name(), Format: c.Format.Name, N: f.N, Payloads: c.Encoded})
			if err != nil {
				return err
			}
			backlogs = append(backlogs, b)
		}
		return nil
	})
	if err != nil {
		for _, done := range backlogs {
			_ = done.Delete(ctx)
		}
		return err
	}
	return writeJSON(env.Stdout, backlogs)
}

// runConsume is the capped consumer process of one backlog.
func runConsume(ctx context.Context, env *Env, args []string) error {
	var f benchprog.ConsumeFlags
	if err := benchprog.Parse(benchprog.CmdConsume, &f, args); err != nil {
		return err
	}
	subs, formats, err := resolve(env, f.Selection)
	if err != nil {
		return err
	}
	if len(subs) != 1 || len(formats) != 1 {
		return exitcode.BadInput("select exactly one message and format, got %d cases", len(subs)*len(formats))
	}
	cs, err := env.build(subs[0], formats, from(f.Selection))
	if err != nil {
		return err
	}
	dec, err := decoder(cs[0])
	if err != nil {
		return err
	}
	res, err := pipeline.Consume(ctx, f.Spec.Options(dec))
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, res)
}

// runConsumer is the long-lived capped consumer of one side's backlogs: it
// drains each backlog a request on stdin names and answers each with one
// line, until stdin closes. A row's cases are built when its first drain
// comes, and kept until a request names another row; each drain starts
// from a collected heap, as a fresh process did.
func runConsumer(ctx context.Context, env *Env, args []string) error {
	var f benchprog.ConsumerFlags
	if err := benchprog.Parse(benchprog.CmdConsumer, &f, args); err != nil {
		return err
	}
	subs, formats, err := resolve(env, f.Selection)
	if err != nil {
		return err
	}
	return pipeline.Serve(ctx, os.Stdin, env.Stdout, func(message, format string) (pipeline.Decoder, error) {
		return consumerDecoder(env, subs, formats, f.Selection, message, format)
	})
}

// consumerDecoder builds the row a request names (one of subs in one of
// formats) and returns its checking decoder.
func consumerDecoder(env *Env, subs []*subject.Subject, formats []codec.Format, sel benchprog.Selection, message, format string) (pipeline.Decoder, error) {
	i := slices.IndexFunc(subs, func(s *subject.Subject) bool { return s.Name() == message })
	j := slices.IndexFunc(formats, func(f codec.Format) bool { return f.Name == format })
	if i < 0 || j < 0 {
		return nil, exitcode.BadInput("%s/%s is not in this consumer's selection", message, format)
	}
	cs, err := env.build(subs[i], formats[j:j+1], from(sel))
	if err != nil {
		return nil, err
	}
	if len(cs) != 1 {
		return nil, exitcode.BadInput("%s does not measure %s", format, message)
	}
	return decoder(cs[0])
}

func runEmbeddedBroker(ctx context.Context, env *Env, args []string) error {
	if err := benchprog.Parse(benchprog.CmdEmbeddedBroker, &benchprog.NoFlags{}, args); err != nil {
		return err
	}
	return broker.ServeEmbedded(ctx, env.Stdout)
}

// decoder decodes every record into one reused typed value, through the
// operation the counts and benchmarks measure (codec.Decoder), and checks the
// first pool-size records against the records the producer encoded: the
// pipeline's figure is only reported for records that decode to what was
// sent.
func decoder(c *cases.Case) (pipeline.Decoder, error) {
	v := c.Format.NewValue(c.Subject)
	dec, err := c.Codec.Decoder(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name(), err)
	}
	n := int64(len(c.Records))
	return func(offset int64, payload []byte) error {
		if err := dec(payload); err != nil {
			return fmt.Errorf("%s record at offset %d: %w", c.Name(), offset, err)
		}
		if offset < n {
			if got := c.Format.ToProto(c.Subject, v); !proto.Equal(got, c.Records[offset]) {
				return fmt.Errorf("%s record at offset %d decodes differently from what was produced: %s", c.Name(), offset,
					roundtrip.FirstDiff(c.Records[offset].ProtoReflect(), got.ProtoReflect(), ""))
			}
		}
		return nil
	}, nil
}
