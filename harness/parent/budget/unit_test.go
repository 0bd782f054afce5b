package budget

import (
	"testing"
	"time"
)

// A measured stage replaces its static estimate and no other; the count
// of stages taken from the measurement says how far the price is measured.
func TestOverTakesOnlyWhatWasMeasured(t *testing.T) {
	static := StaticPrice(300, []string{"protobuf", "json"}, []string{"protobuf", "json"}, 200_000)
	got, n := static.Over(MessagePrice{Count: 7 * time.Second})
	if n != 1 || got.Count != 7*time.Second || got.Sizes != static.Sizes || got.Round != static.Round || got.PipePass != static.PipePass {
		t.Fatalf("over %+v: %+v, %d", static, got, n)
	}
	if got, n := static.Over(MessagePrice{}); n != 0 || got != static {
		t.Fatalf("nothing measured: %+v, %d", got, n)
	}
}

// A job prices what it runs: counting off drops the counts, the pipeline
// off drops the pipeline, more workers divide only the exact stages, and a
// dearer measured count raises the price by what the job's processes pay.
func TestJobPricesWhatItRuns(t *testing.T) {
	u := StaticPrice(2000, []string{"protobuf", "json", "avro"}, []string{"protobuf", "json", "avro"}, 200_000)
	all := Job{Formats: 3, Workers: 1, Processes: 3, Rounds: 6, PipeRounds: 5, Counting: true, Pipeline: true}
	full := all.Price(u, 2)
	noCount, noPipe, twoWorkers := all, all, all
	noCount.Counting, noPipe.Pipeline, twoWorkers.Workers = false, false, 2
	if c := noCount.Price(u, 2); full-c != u.Count*6 {
		t.Errorf("counting off saves %v, want 6 processes of %v", full-c, u.Count)
	}
	if p := noPipe.Price(u, 2); full-p != 2*7*u.PipePass {
		t.Errorf("pipeline off saves %v", full-p)
	}
	if one := all.Price(u, 1); full-one != u.Sizes+3*u.Count+7*u.Round+7*u.PipePass {
		t.Errorf("a second side adds %v", full-one)
	}
	if w := twoWorkers.Price(u, 2); full-w != (2*u.Sizes+6*u.Count)/2 {
		t.Errorf("two workers save %v, want half the exact stages", full-w)
	}
	dear, _ := u.Over(MessagePrice{Count: u.Count + time.Second})
	if d := all.Price(dear, 2); d-full != 6*time.Second {
		t.Errorf("a count dearer by 1s raises the price by %v, want 6s", d-full)
	}
}

// Counts beside the rounds: the CPUs beside the timings' count while the
// rounds run, so a message's counts that fit in its rounds' time on those
// CPUs add nothing, and what does not fit is counted after on every worker.
func TestJobBesideCountsInTheRoundsTime(t *testing.T) {
	u := MessagePrice{Sizes: time.Second, Count: 2 * time.Second, Round: time.Second}
	after := Job{Formats: 3, Workers: 2, Processes: 3, Rounds: 6, Counting: true}
	beside := after
	beside.Beside = true
	// 12 s of counts (3 processes × 2 sides), 14 s of rounds (7 a side).
	if a, b := after.Price(u, 2), beside.Price(u, 2); a-b != 6*time.Second {
		t.Errorf("beside saves %v of %v, want the counts' 6 s on 2 workers", a-b, a)
	}
	dear := MessagePrice{Sizes: time.Second, Count: 10 * time.Second, Round: time.Second}
	// 60 s of counts, 14 of them beside the rounds, 46 after on 2 workers.
	if got, want := beside.Price(dear, 2), preparePerMsg+(2*time.Second+46*time.Second)/2+14*time.Second; got != want {
		t.Errorf("counts past the rounds: %v, want %v", got, want)
	}
	one := beside
	one.Workers = 1
	after.Workers = 1
	if one.Price(u, 2) != after.Price(u, 2) {
		t.Errorf("one worker has no CPU beside the rounds: %v vs %v", one.Price(u, 2), after.Price(u, 2))
	}
}

// Capacity is the budget less the reserve and a job's fixed part, with a
// margin; a longer budget has more.
func TestCapacity(t *testing.T) {
	if c := Capacity(10 * time.Minute); c <= 0 || c >= 10*time.Minute-Reserve-ShardFixed {
		t.Fatalf("capacity of 10m: %v", c)
	}
	if Capacity(20*time.Minute) <= Capacity(10*time.Minute) {
		t.Fatal("a longer budget has no more capacity")
	}
}

// ShardMinimum is the smallest whole-minute budget whose capacity holds
// the message: the minute below it does not.
func TestShardMinimumHoldsTheDearestMessage(t *testing.T) {
	for _, dearest := range []time.Duration{0, time.Second, 40 * time.Second, 7*time.Minute + 3*time.Second} {
		m := ShardMinimum(dearest)
		if m%time.Minute != 0 || Capacity(m) < dearest || Capacity(m-time.Minute) >= max(dearest, 1) {
			t.Errorf("ShardMinimum(%v) = %v: capacity %v, a minute less %v", dearest, m, Capacity(m), Capacity(m-time.Minute))
		}
	}
	if ShardMinimum(0) <= Reserve+ShardFixed {
		t.Errorf("ShardMinimum(0) = %v leaves nothing to measure", ShardMinimum(0))
	}
}

// A message's static pipeline pass is its backlogs': each format's
// records a drain of DrainTarget takes at that format, and a start per
// format.
func TestStaticPipePassDrainsThePrecisionBacklog(t *testing.T) {
	u := StaticPrice(8000, []string{"protobuf", "json"}, []string{"protobuf", "json"}, 200_000)
	pb, js := PipeRecord(8000, opBaseNs+8000*nsPerByte["protobuf"], 0), PipeRecord(8000, opBaseNs+8000*nsPerByte["json"], 0)
	npb, njs := time.Duration(PrecisionBacklog(pb)), time.Duration(PrecisionBacklog(js))
	if want := 2*PipeStart + npb*pb + njs*js; u.PipePass != want || npb*pb < DrainTarget || njs*js < DrainTarget || njs >= npb {
		t.Fatalf("pipe pass %v, want %v (N %d protobuf, %d json)", u.PipePass, want, npb, njs)
	}
	if few := StaticPrice(8000, []string{"protobuf", "json"}, []string{"protobuf", "json"}, 10); few.PipePass != 2*PipeStart+10*(pb+js) {
		t.Fatalf("a count of 10: pipe pass %v", few.PipePass)
	}
	// Drained in protobuf alone (pipeline-formats: auto), the pass is its
	// row's; the counts still price both formats.
	one := StaticPrice(8000, []string{"protobuf", "json"}, []string{"protobuf"}, 200_000)
	if one.PipePass != PipeStart+npb*pb || one.Count != u.Count {
		t.Fatalf("protobuf only: pipe pass %v (want %v), count %v (want %v)", one.PipePass, PipeStart+npb*pb, one.Count, u.Count)
	}
}
