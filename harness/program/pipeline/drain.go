// Package pipeline measures end-to-end consumer throughput through a
// Kafka-API broker with the constant-backlog method: Fill produces exactly N
// records into a fresh topic; then a consumer in its own capped process
// drains it from offset 0 (Backlog.Drain), decodes every record, and is
// verified for count and checksum before any figure is reported. Fill and
// Consume run inside the bench program; Drain and the topic cleanup run in
// the parent (package piperounds orchestrates the rounds).
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/wiregate/wiregate/harness/program/proc"
)

// drainGrace is how much longer than its own timeout a consumer may run
// before the parent kills it: the consumer bounds itself, this bounds one
// that does not.
const drainGrace = 30 * time.Second

var errDrainTimeout = errors.New("drain timed out")

// drain runs one capped consumer process and verifies its count and
// checksum. command must make the process with proc.Command on the ctx it
// is given, so that an interrupted run or a hung consumer stops it.
func drain(ctx context.Context, command func(context.Context, ConsumerSpec) *proc.Cmd, spec ConsumerSpec, want uint64) (ConsumeResult, error) {
	kind := drainKind(spec.Raw)
	limit := spec.Timeout + drainGrace
	dctx, cancel := context.WithTimeoutCause(ctx, limit, errDrainTimeout)
	defer cancel()
	cmd := command(dctx, spec)
	capConsumer(cmd.Cmd)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer of %s: %w", kind, spec.Topic, context.Cause(ctx))
	case errors.Is(context.Cause(dctx), errDrainTimeout):
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer did not finish within %s; killed it", kind, limit)
	case err != nil:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return ConsumeResult{}, fmt.Errorf("pipeline: starting the %s consumer %s: %w", kind, cmd.Path, errors.Unwrap(err))
		}
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer failed (%v): %s", kind, ee, cmd.Captured().LastLine())
	}
	var res ConsumeResult
	if err := json.Unmarshal(lastJSONLine(stdout.Bytes()), &res); err != nil {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer printed no result JSON (%v): %q", kind, err, proc.LastLine(stdout.String()))
	}
	res, err = verify(res, spec, want)
	if err != nil {
		return res, err
	}
	return processPeakRSS(cmd, res), nil
}

func lastJSONLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); bytes.HasPrefix(l, []byte("{")) {
			return l
		}
	}
	return nil
}
