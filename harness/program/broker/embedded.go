package broker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

const (
	embeddedStartTimeout = 15 * time.Second
	embeddedStopTimeout  = 5 * time.Second
)

// ServeEmbedded runs franz-go's kfake as a one-broker cluster on a free
// 127.0.0.1 port, prints its address as one line on stdout, and serves until
// ctx is done, stdin reaches EOF (the parent closed it or died), or SIGINT or
// SIGTERM arrives. It is the body of the embedded broker's own process, so a
// consumer's CPU cap does not also cap the broker.
func ServeEmbedded(ctx context.Context, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveEmbedded(ctx, os.Stdin, stdout)
}

func serveEmbedded(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(0))
	if err != nil {
		return fmt.Errorf("embedded broker: %w", err)
	}
	defer c.Close()
	addrs := c.ListenAddrs()
	if len(addrs) == 0 {
		return errors.New("embedded broker: kfake listens on no address")
	}
	if _, err := fmt.Fprintln(stdout, strings.Join(addrs, ",")); err != nil {
		return fmt.Errorf("embedded broker: announcing the address: %w", err)
	}
	eof := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		close(eof)
	}()
	select {
	case <-ctx.Done():
	case <-eof:
	}
	return nil
}

// startEmbedded starts the embedded broker's process and reads its address.
// The child ends when its stdin closes (Close, or this process dying) and, on
// Linux, when this process dies (Pdeathsig). It has a process group of its
// own: a terminal's Ctrl-C reaches only wiregate, which deletes its topics
// before it closes the broker.
func startEmbedded(ctx context.Context, cfg config) (*Broker, error) {
	if cfg.embeddedCommand == nil {
		return nil, errors.New("embedded broker: no command to start it with (broker.WithEmbeddedCommand)")
	}
	cmd := cfg.embeddedCommand()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	kill := func() error {
		if err := cmd.Kill(); err != nil {
			return err
		}
		<-exited
		return nil
	}

	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		if s.Scan() {
			line <- strings.TrimSpace(s.Text())
		}
		close(line)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	timer := time.NewTimer(embeddedStartTimeout)
	defer timer.Stop()
	var addr string
	select {
	case addr = <-line:
	case <-timer.C:
		_ = kill()
		return nil, fmt.Errorf("embedded broker: no address within %s from %s %s", embeddedStartTimeout, cmd.Path, strings.Join(cmd.Args[1:], " "))
	case <-ctx.Done():
		_ = kill()
		return nil, fmt.Errorf("embedded broker: %w", ctx.Err())
	}
	if addr == "" {
		_ = kill()
		<-exited
		return nil, fmt.Errorf("embedded broker: %s exited without an address (%v): %s", cmd.Path, errors.Unwrap(waitErr), cmd.Captured().LastLine())
	}
	addrs, err := ParseAddrs(addr)
	if err != nil {
		_ = kill()
		return nil, fmt.Errorf("embedded broker: announced %q, not an address", addr)
	}
	if err := Ping(ctx, addrs, embeddedStartTimeout); err != nil {
		_ = kill()
		return nil, fmt.Errorf("embedded broker: started but does not answer: %w", err)
	}
	closeFn := func() error {
		_ = stdin.Close()
		select {
		case <-exited:
			return nil
		case <-time.After(embeddedStopTimeout):
			if err := kill(); err != nil {
				return err
			}
			return fmt.Errorf("embedded broker: still running %s after its stdin closed; killed it", embeddedStopTimeout)
		}
	}
	peakRSS := func() int64 {
		select {
		case <-exited:
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				return ru.Maxrss << 10 // kB on Linux
			}
		default:
		}
		return 0
	}
	return &Broker{Addrs: addrs, Kind: KindEmbedded, close: closeFn, kill: kill, peakRSS: peakRSS}, nil
}
