package cases

// Stream hands a selection's cases to fn one message at a time (every
// format of one message per call, in the selection's order) and stops at
// fn's first error. A stream from a bench program builds each message's
// cases when it reaches them and lets them go when fn returns, so a process
// holds one message's records at a time: its memory follows the biggest
// message, not the number of messages, and every collection the runtime
// makes (testing.Benchmark makes one before each run) sees a small heap.
// A stream can be run again: every run builds the same logical records.
type Stream func(fn func(message []*Case) error) error

// Fixed is a Stream over cases already built (message-major, as Build
// makes them): one call per run of consecutive cases of one message.
func Fixed(cs []*Case) Stream {
	return func(fn func([]*Case) error) error {
		for i := 0; i < len(cs); {
			j := i + 1
			for j < len(cs) && cs[j].Subject == cs[i].Subject {
				j++
			}
			if err := fn(cs[i:j]); err != nil {
				return err
			}
			i = j
		}
		return nil
	}
}
