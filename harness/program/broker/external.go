package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// PingTimeout bounds how long an external cluster gets to answer a metadata
// request before it counts as unreachable.
const PingTimeout = 10 * time.Second

// ParseAddrs parses "host:port[,host:port…]" into a list, refusing anything
// that is not a host and a numeric port (exit code 2 naming the input).
func ParseAddrs(spec string) ([]string, error) {
	var addrs []string
	for _, a := range strings.Split(spec, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if err != nil || host == "" || strings.ContainsAny(host, " /") {
			return nil, badInput("broker %q: %q is not host:port; use auto, redpanda, embedded, or host:port[,host:port]", spec, a)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, badInput("broker %q: port %q of %q is not a number from 1 to 65535", spec, port, a)
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		return nil, badInput("broker %q: no address; use auto, redpanda, embedded, or host:port[,host:port]", spec)
	}
	return addrs, nil
}

// Ping asks addrs for cluster metadata and fails, naming the addresses, when
// no broker answers within timeout.
func Ping(ctx context.Context, addrs []string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DialTimeout(timeout))
	if err != nil {
		return badInput("broker %s: %v", strings.Join(addrs, ","), err)
	}
	defer cl.Close()
	m, err := kadm.NewClient(cl).BrokerMetadata(ctx)
	if err == nil && len(m.Brokers) == 0 {
		err = errors.New("metadata lists no brokers")
	}
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer within %s: %w", timeout, err)
		}
		return badInput("broker %s is unreachable (%s); check the address, or use --broker embedded", strings.Join(addrs, ","), oneLine(err))
	}
	return nil
}

func startExternal(ctx context.Context, spec string, pingTimeout time.Duration) (*Broker, error) {
	addrs, err := ParseAddrs(spec)
	if err != nil {
		return nil, err
	}
	if err := Ping(ctx, addrs, pingTimeout); err != nil {
		return nil, err
	}
	return &Broker{Addrs: addrs, Kind: KindExternal, Reason: "external cluster " + strings.Join(addrs, ",") + " was asked for"}, nil
}
