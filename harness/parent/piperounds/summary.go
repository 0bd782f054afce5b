package piperounds

import (
	"fmt"
	"sort"
)

// Summary is one side's figures for one backlog: what `wiregate pipeline`
// prints (a line, or JSON).
type Summary struct {
	Message string `json:"message"`
	Format  string `json:"format"`
	Broker  string `json:"broker"`
	N       int64  `json:"n"` // records in the backlog
	// BytesBudget is the byte budget when it decided N (fewer than the
	// count asked for; see Backlogs); 0: N is that count.
	BytesBudget          int64     `json:"bytes_budget,omitempty"`
	Rounds               int       `json:"rounds"`
	RPS                  float64   `json:"rps"`         // median over the rounds
	RPSSamples           []float64 `json:"rps_samples"` // one per round
	NsPerMsg             float64   `json:"ns_per_msg"`  // median over the rounds
	RawNsPerMsg          float64   `json:"raw_ns_per_msg"`
	ConsumerPeakRSSBytes int64     `json:"consumer_peak_rss_bytes"`
	BrokerPeakRSSBytes   int64     `json:"broker_peak_rss_bytes,omitempty"` // the embedded broker's, over the whole run
	Verified             bool      `json:"verified"`                        // count and checksum of every drain
	Cap                  string    `json:"cap"`
}

// Summaries are side's rows.
func (r *Result) Summaries(side string) []Summary {
	var out []Summary
	for _, row := range r.Rows {
		s := row.Sides[side]
		if s == nil {
			continue
		}
		bl := r.Backlogs[row.Key()]
		out = append(out, Summary{Message: row.Message, Format: row.Format, Broker: r.Broker, N: bl.N, BytesBudget: bl.Bytes, Rounds: len(s.RPS),
			RPS: Median(s.RPS), RPSSamples: s.RPS, NsPerMsg: Median(s.NsPerMsg), RawNsPerMsg: s.RawNsPerMsg,
			ConsumerPeakRSSBytes: s.PeakRSSBytes, BrokerPeakRSSBytes: r.BrokerPeakRSSBytes, Verified: true, Cap: s.Cap})
	}
	return out
}

// Line is the summary as one greppable line: n_by says whether the count
// or the byte budget decided n; peak_rss is the consumer's.
func (s Summary) Line() string {
	by := "count"
	if s.BytesBudget > 0 {
		by = "bytes"
	}
	return fmt.Sprintf("RESULT message=%s format=%s broker=%s n=%d n_by=%s rounds=%d rps=%.0f ns/msg=%.1f raw_ns/msg=%.1f peak_rss=%dMiB broker_peak_rss=%dMiB",
		s.Message, s.Format, s.Broker, s.N, by, s.Rounds, s.RPS, s.NsPerMsg, s.RawNsPerMsg, s.ConsumerPeakRSSBytes>>20, s.BrokerPeakRSSBytes>>20)
}

// Median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
