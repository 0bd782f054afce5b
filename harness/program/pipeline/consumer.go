package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/wiregate/wiregate/harness/program/proc"
)

// DrainRequest is one drain a long-lived consumer is asked for: which
// message's records in which format it decodes, and the backlog.
type DrainRequest struct {
	Message string       `json:"message"`
	Format  string       `json:"format"`
	Spec    ConsumerSpec `json:"spec"`
}

// DrainReply is the consumer's answer to one request: its result, or the
// one line that says why there is none.
type DrainReply struct {
	Result *ConsumeResult `json:"result,omitempty"`
	Error  string         `json:"error,omitempty"`
}

// Consumer is one capped consumer process that drains backlog after
// backlog, as asked, one at a time: started once per side and run, it
// builds each row's records once and pays no process start per drain (a
// pass used to cost ~0.3 s, most of it a new consumer starting and
// building its records). Each drain still starts from a
// collected heap and a new client, with the timer before its first poll.
type Consumer struct {
	cmd *proc.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	mu  sync.Mutex

	waitOnce sync.Once
	waitErr  error
}

// exited waits, once, for the child to end and its stderr to be copied:
// a consumer's stdout can close before its last stderr line is read.
func (c *Consumer) exited() error {
	c.waitOnce.Do(func() { c.waitErr = c.cmd.Wait() })
	return c.waitErr
}

// ended waits for the child to end, killing it if it does not within
// proc.KillAfter (killed says so).
func (c *Consumer) ended() (killed bool, err error) {
	waited := make(chan error, 1)
	go func() { waited <- c.exited() }()
	select {
	case err := <-waited:
		return false, err
	case <-time.After(proc.KillAfter):
		_ = c.cmd.Kill()
		return true, <-waited
	}
}

// lastWords is the last line a consumer that ended wrote, once it has
// ended.
func (c *Consumer) lastWords() string {
	_, _ = c.ended()
	return c.cmd.Captured().LastLine()
}

// StartConsumer starts cmd (the bench program's pipeline-consumer, made
// with proc.Command on a context that outlives every drain) capped as a
// consumer is.
func StartConsumer(cmd *proc.Cmd) (*Consumer, error) {
	capConsumer(cmd.Cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("pipeline: the consumer: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("pipeline: the consumer: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pipeline: starting the consumer: %w", err)
	}
	return &Consumer{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// Drain asks the consumer to drain b, decoded or raw, and verifies the
// count and checksum it reports: a shortfall or a mismatch is an error,
// never a figure. A consumer that does not answer within the drain's
// timeout and a grace is killed, as is one whose drain ctx ends.
func (c *Consumer) Drain(ctx context.Context, b Backlog, raw bool) (ConsumeResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	spec := ConsumerSpec{Brokers: b.Brokers, Topic: b.Topic, N: b.N, Raw: raw, Timeout: DefaultTimeout(b.N), Idle: DefaultIdle}
	kind := drainKind(raw)
	req, _ := json.Marshal(DrainRequest{Message: b.Message, Format: b.Format, Spec: spec})
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer is gone: %s", kind, c.lastWords())
	}
	type answer struct {
		line []byte
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := c.out.ReadBytes('\n')
		got <- answer{line, err}
	}()
	limit := spec.Timeout + drainGrace
	timer := time.NewTimer(limit)
	defer timer.Stop()
	var a answer
	select {
	case a = <-got:
	case <-ctx.Done():
		_ = c.cmd.Kill()
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer of %s: %w", kind, spec.Topic, context.Cause(ctx))
	case <-timer.C:
		_ = c.cmd.Kill()
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer did not finish within %s; killed it", kind, limit)
	}
	if a.err != nil {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer ended: %s", kind, c.lastWords())
	}
	var reply DrainReply
	if err := json.Unmarshal(a.line, &reply); err != nil || (reply.Result == nil && reply.Error == "") {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer answered no result JSON (%v): %q", kind, err, proc.LastLine(string(a.line)))
	}
	if reply.Error != "" {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer failed: %s", kind, reply.Error)
	}
	return verify(*reply.Result, spec, b.Checksum)
}

// Close ends the consumer: its stdin closed, it exits; one that does not
// within proc.KillAfter is killed.
func (c *Consumer) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.in.Close()
	killed, err := c.ended()
	var ee *proc.Error
	if !killed && errors.As(err, &ee) && ee.Line == "" {
		return nil // killed after a drain's failure, which was the error to report
	}
	return err
}

func drainKind(raw bool) string {
	if raw {
		return "raw"
	}
	return "decoding"
}

// verify checks a drain's count and checksum against its backlog, and adds
// what the operating system says of the process's peak memory.
func verify(res ConsumeResult, spec ConsumerSpec, want uint64) (ConsumeResult, error) {
	kind := drainKind(spec.Raw)
	if res.N != spec.N {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer received %d of %d records from %s", kind, res.N, spec.N, spec.Topic)
	}
	if res.Checksum != want {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer's checksum %016x differs from the producer's %016x over %d records of %s: payloads changed in transit", kind, res.Checksum, want, res.N, spec.Topic)
	}
	return res, nil
}

// processPeakRSS is what the kernel says of a finished process's peak
// resident set, when it is more than the process reported.
func processPeakRSS(cmd *proc.Cmd, res ConsumeResult) ConsumeResult {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss<<10 > res.PeakRSSBytes {
		res.PeakRSSBytes = ru.Maxrss << 10 // kB on Linux
	}
	return res
}

// Serve is the long-lived consumer's loop, inside the consumer process:
// each DrainRequest line on in is drained (Consume, from a collected heap)
// and answered with one DrainReply line on out, until in ends. decoderFor
// makes a row's decoder when a request first names it; the decoder is kept
// until a request names another row. A failed drain is answered with its
// error, and the loop goes on: the parent decides.
func Serve(ctx context.Context, in io.Reader, out io.Writer, decoderFor func(message, format string) (Decoder, error)) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	enc := json.NewEncoder(out)
	row := ""
	var dec Decoder
	for sc.Scan() {
		var req DrainRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("pipeline consumer: a request that is not a drain request: %w", err)
		}
		reply, err := DrainReply{}, error(nil)
		if key := req.Message + "/" + req.Format; key != row {
			row, dec = "", nil
			if dec, err = decoderFor(req.Message, req.Format); err == nil {
				row = key
			}
		}
		if err == nil {
			runtime.GC()
			var res ConsumeResult
			if res, err = Consume(ctx, req.Spec.Options(dec)); err == nil {
				reply.Result = &res
			}
		}
		if err != nil {
			reply.Error = strings.ReplaceAll(err.Error(), "\n", " ")
		}
		if err := enc.Encode(reply); err != nil {
			return err
		}
	}
	return sc.Err()
}
