package budget

import (
	"slices"
	"time"
)

// Every price constant of the gate lives here (the count's are in
// countprice.go): the static prices a plan uses for what no run has
// measured yet, calibrated on what runs measured (docs/design/prices.md;
// docs/figures.md, "How close is a plan's price to what a shard takes?").
// They are estimates; the gate's meters correct them while it runs, and a
// later plan reads what a run measured (MessagePrice) instead.
const (
	// ShardFixed is what a job spends before it measures: building
	// wiregate and the bench programs' shared part, the schema checks.
	ShardFixed = 60 * time.Second
	// shardFill is the part of what is left that a shard plan fills:
	// prices are estimates and a shard that fits exactly is cut at its end.
	shardFill = 0.8
	// preparePerMsg is what building the bench programs adds per message.
	preparePerMsg = 100 * time.Millisecond
	// exactPerMessage and exactPerKiB price sizing a message on one side:
	// a fixed part and one by its records' mean protobuf bytes.
	exactPerMessage = 150 * time.Millisecond
	exactPerKiB     = 10 * time.Millisecond
	// roundSetup is a message's part of a bench round on one side that
	// does not scale with benchtime: building its records in the program.
	roundSetup = 350 * time.Millisecond
	// SizePrice is what the sizes stage's meter prices sizing one message
	// on both sides at before its first chunk says what it costs (a
	// 353-message change took 0.4 s a message).
	SizePrice = 400 * time.Millisecond
	// ProgramStart is starting one side's bench program.
	ProgramStart = 100 * time.Millisecond
	// BenchRun is a timed benchmark's cost over its benchtime: it runs
	// the operations its warm-up speed gives the benchtime
	// (bench.Iterations), a speed taken cold and so a little slow, after
	// testing's single first operation (docs/design/timing-to-power.md).
	// The warm-up round, one of a message's rounds, calibrates and costs
	// more; its price is measured, not this.
	BenchRun = 1.15
	// PipeStart is one pass's fixed part of a pipeline row (its share of
	// the row's fill: a producer's start, building its records; a drain by
	// the long-lived consumer starts nothing), and BrokerPerByte the
	// broker's share of a record (docs/pipeline.md).
	PipeStart     = 20 * time.Millisecond
	BrokerPerByte = time.Nanosecond
	// DrainTarget is how long a decoded drain must last for its
	// records/s to be the consumer's and not its first fetch's: a backlog
	// holds what a drain of this long needs at its format
	// (PrecisionBacklog), not what the time left would hold. How
	// many rounds it takes is then the power's to say.
	DrainTarget = 250 * time.Millisecond
	// opBaseNs and nsPerByte are what the slower op of a format costs
	// natively, a fixed part and per byte of the message's protobuf
	// encoding (this repo's messages): enough to price a message from its
	// schema alone.
	opBaseNs = 100
)

var nsPerByte = map[string]float64{"json": 20, "protojson": 40, "protobuf": 2, "vtprotobuf": 1.5, "avro": 2, "avro-hamba": 3, "msgpack": 8, "cbor": 8}

// MessagePrice is what measuring one message costs, a price for each stage: the
// figures a run measures (report.json's costs) and a later plan prices
// with, or their static estimates. Zero: the stage did not measure it.
type MessagePrice struct {
	Sizes time.Duration // sizing it on one side
	Count time.Duration // counting it in one process on one side (every format), its share of the process's start included
	Round time.Duration // one bench round on one side at MinBenchtime, building its records included
	// PipePass is one pass of the message's backlog through the pipeline
	// on one side, every format added, starting its producer or consumer
	// included: at the backlogs the gate drains (each format's
	// PrecisionBacklog).
	PipePass time.Duration
}

// StaticPrice prices a message from its schema alone: its records' mean
// protobuf bytes, measured in formats and drained in piped (of them), its
// pipeline backlogs holding at most most records (the inputs' count and
// byte budget).
func StaticPrice(bytes float64, formats, piped []string, most int64) MessagePrice {
	u := MessagePrice{Sizes: exactPerMessage + time.Duration(bytes/1024*float64(exactPerKiB)), Count: ProcessStart / staticBatch}
	for _, f := range formats {
		ns := opBaseNs + bytes*nsPerByte[f]
		u.Count += CountFormatPrice(f, [2]float64{ns, ns}, bytes)
		if slices.Contains(piped, f) {
			r := PipeRecord(bytes, ns, ns)
			u.PipePass += PipeStart + time.Duration(min(PrecisionBacklog(r), max(most, 1)))*r
		}
	}
	u.Round = roundSetup + time.Duration(len(formats)*2)*time.Duration(BenchRun*float64(MinBenchtime))
	return u
}

// Over is u with each stage that m measured taken from m; n says how many
// of the stages a job prices came from m.
func (u MessagePrice) Over(m MessagePrice) (out MessagePrice, n int) {
	pick := func(static, measured time.Duration) time.Duration {
		if measured > 0 {
			n++
			return measured
		}
		return static
	}
	out = MessagePrice{Sizes: pick(u.Sizes, m.Sizes), Count: pick(u.Count, m.Count), Round: pick(u.Round, m.Round), PipePass: pick(u.PipePass, m.PipePass)}
	return out, n
}

// Job is how a shard job measures each message when the plan prices it:
// the cheapest measurement the budget still calls whole — every figure,
// counts in Processes processes per side, Rounds bench rounds at
// MinBenchtime (the fewest the change's Holm family can reach
// significance with), pipeline rows of MinBacklog records over
// PipeRounds decoded rounds — on Workers workers.
type Job struct {
	Formats            int
	Workers, Processes int
	Rounds, PipeRounds int
	Counting, Pipeline bool
	// Beside: the counts run beside the bench rounds (input
	// counts-beside), on the Workers-1 CPUs the timings leave, then on
	// every worker.
	Beside bool
}

// Price is what the job spends measuring a message of unit u on sides
// sides, building its programs included.
func (j Job) Price(u MessagePrice, sides int) time.Duration {
	workers := time.Duration(max(j.Workers, 1))
	var counts time.Duration
	if j.Counting {
		counts = u.Count * time.Duration(max(j.Processes, 1)*sides)
	}
	// The bench rounds and the warm-up round that prices them; the
	// pipeline's fill and raw drain and its decoded rounds.
	rounds := u.Round * time.Duration(sides*(j.Rounds+1))
	if j.Beside && workers > 1 {
		// What the Workers-1 CPUs beside the rounds do not count in their
		// time is counted after, on every worker.
		counts = max(0, counts-(workers-1)*rounds)
	}
	price := preparePerMsg + (u.Sizes*time.Duration(sides)+counts)/workers + rounds
	if j.Pipeline {
		price += time.Duration(sides*(2+j.PipeRounds)) * u.PipePass
	}
	return price
}

// PipeRecord is one record through the pipeline on one side, from the
// sizes stage's row of its format: the broker's share by its bytes and the
// slower of its encode and decode.
func PipeRecord(bytesMean, encodeNs, decodeNs float64) time.Duration {
	return time.Duration(bytesMean*float64(BrokerPerByte) + max(encodeNs, decodeNs))
}

// PrecisionBacklog is the records a drain of DrainTarget takes at
// perRecord (a row's faster side), at least MinBacklog.
func PrecisionBacklog(perRecord time.Duration) int64 {
	if perRecord <= 0 {
		return MinBacklog
	}
	return max(MinBacklog, int64((DrainTarget+perRecord-1)/perRecord))
}

// Capacity is what one job of time-budget total has for measuring: what
// the budget's plan has left after the job's fixed part, less a margin.
func Capacity(total time.Duration) time.Duration {
	return time.Duration(float64(total-Reserve-ShardFixed) * shardFill)
}

// ShardMinimum is the smallest time-budget, in whole minutes, whose one
// job has the capacity to measure a message priced at dearest: a shard
// smaller than one message cannot hold its part of any split.
func ShardMinimum(dearest time.Duration) time.Duration {
	d := Reserve + ShardFixed + time.Duration(float64(dearest)/shardFill)
	return (d + time.Minute - 1).Truncate(time.Minute)
}
