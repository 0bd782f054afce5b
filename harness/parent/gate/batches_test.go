package gate

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// Count processes hold batches of messages priced at most
// budget.CountBatch beyond their start, in the plan's order, every message
// once; a batch never mixes messages counted in different numbers of
// processes or held by different sides (a compared message's batch must
// be the same on both), and a message priced over CountBatch on its own
// is a batch of its own.
func TestCountBatchesSplitAtTheirPrice(t *testing.T) {
	sz := sizes{pairs: map[string][2]*benchprog.Size{}}
	var plan budget.CPUForecast
	var headOnly []string
	price := map[string]time.Duration{}
	for i := range 12 {
		name := fmt.Sprintf("m%02d.v1.M", i)
		ns := 123000.0 // a small message: three to a batch
		switch i {
		case 5:
			ns = 4e6 // priced over CountBatch alone
		case 9:
			headOnly = append(headOnly, name) // new in head: held by one side
		}
		row := &benchprog.Size{Message: name, Format: "protobuf", BytesMean: 200, Cold: benchprog.ColdReading{EncodeNs: ns, DecodeNs: ns}}
		sz.pairs[name+"/protobuf"] = [2]*benchprog.Size{row, row}
		procs := 3
		if i >= 10 {
			procs = 2 // the plan's last messages, cut to two processes a side
		}
		plan.Counted = append(plan.Counted, budget.Counted{Name: name, Processes: procs})
		price[name] = budget.CountPrice(sz.rows(1, name, nil))
	}
	if price["m00.v1.M"]*3 > budget.CountBatch || price["m00.v1.M"]*4 <= budget.CountBatch || price["m05.v1.M"] <= budget.CountBatch {
		t.Fatalf("test data: small %s, large %s against CountBatch %s", price["m00.v1.M"], price["m05.v1.M"], budget.CountBatch)
	}
	var all []string
	for _, c := range plan.Counted {
		all = append(all, c.Name)
	}
	base := slices.DeleteFunc(slices.Clone(all), func(m string) bool { return slices.Contains(headOnly, m) })
	ps := programs{base: &program{name: "base", sel: benchprog.Selection{Messages: base}}, head: &program{name: "head", sel: benchprog.Selection{Messages: all}}}

	batches := countBatches(ps, plan, sz)
	var seen []string
	for _, b := range batches {
		var total time.Duration
		for _, m := range b.messages {
			total += price[m]
			want := plan.Counted[slices.Index(all, m)].Processes
			if want != b.processes || ps.holding(m) != ps.holding(b.messages[0]) {
				t.Errorf("batch %v mixes: %s has %d processes and %d sides, the batch %d and %d", b.messages, m, want, ps.holding(m), b.processes, ps.holding(b.messages[0]))
			}
		}
		if len(b.messages) > 1 && total > budget.CountBatch {
			t.Errorf("batch %v priced %s, over CountBatch %s", b.messages, total, budget.CountBatch)
		}
		seen = append(seen, b.messages...)
	}
	if !slices.Equal(seen, all) {
		t.Fatalf("batches hold %v, want every message once in the plan's order %v", seen, all)
	}
	var got [][]string
	for _, b := range batches {
		got = append(got, b.messages)
	}
	want := [][]string{{"m00.v1.M", "m01.v1.M", "m02.v1.M"}, {"m03.v1.M", "m04.v1.M"}, {"m05.v1.M"}, {"m06.v1.M", "m07.v1.M", "m08.v1.M"},
		{"m09.v1.M"}, {"m10.v1.M", "m11.v1.M"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("batches %v, want %v", got, want)
	}
}

// Each message's added content is counted once, in one of its batch's
// processes on head, the messages dealt round them so no process carries
// them all; a base process counts none, and a message without added
// content is counted once a process as before.
func TestAddedContentIsDealtRoundTheHeadProcesses(t *testing.T) {
	sz := sizes{pairs: map[string][2]*benchprog.Size{}, added: map[string]*benchprog.Size{}}
	var plan budget.CPUForecast
	var all []string
	for i := range 4 {
		name := fmt.Sprintf("m%02d.v1.M", i)
		row := &benchprog.Size{Message: name, Format: "protobuf", BytesMean: 200, Cold: benchprog.ColdReading{EncodeNs: 1000, DecodeNs: 1000}}
		sz.pairs[name+"/protobuf"] = [2]*benchprog.Size{row, row}
		if i != 2 { // m02 adds nothing
			sz.added[name+"/protobuf"] = &benchprog.Size{Message: name, Format: "protobuf", BytesMean: 260, Cold: row.Cold}
		}
		plan.Counted = append(plan.Counted, budget.Counted{Name: name, Processes: 3})
		all = append(all, name)
	}
	ps := programs{base: &program{name: "base", sel: benchprog.Selection{Messages: all, Formats: []string{"protobuf"}}},
		head: &program{name: "head", sel: benchprog.Selection{Messages: all, Formats: []string{"protobuf"}}}}
	r := &run{}
	procs := r.countProcesses(ps, plan, sz)
	counted := map[string]int{}
	var perProcess []int
	for _, u := range procs {
		if sideIndex(ps, u.side) == 0 && len(u.added) > 0 {
			t.Errorf("a base process counts added content: %+v", u)
		}
		if sideIndex(ps, u.side) == 1 {
			perProcess = append(perProcess, len(u.added))
		}
		for _, m := range u.added {
			counted[m]++
		}
	}
	if len(counted) != 3 || counted["m00.v1.M"] != 1 || counted["m01.v1.M"] != 1 || counted["m03.v1.M"] != 1 || counted["m02.v1.M"] != 0 {
		t.Errorf("added content counted %v, want m00, m01 and m03 once each", counted)
	}
	if slices.Max(perProcess) > 2 || len(perProcess) != 3 {
		t.Errorf("added content per head process %v: want it dealt round the 3", perProcess)
	}
}
