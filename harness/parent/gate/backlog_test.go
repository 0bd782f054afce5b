package gate_test

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
)

// The byte budget through the gate: a message of big records gets a smaller
// backlog than a small one, each row's sized by the byte budget in its own
// format, and the report says so per row; the memory of the broker and of
// the consumers is reported.
func TestBigMessagesGetSmallerBacklogsByBytes(t *testing.T) {
	shapes := "../../cmd/wiregate/testdata/shapes"
	r := run(t, shapes, shapes, func(in map[string]string, o *gate.Options) {
		in["working-directory"], in["messages"], in["formats"], in["measure"] = shapes, "batch.v1.LogBatch,batch.v1.Attribute", "json,protobuf", "all"
		in["lint"], in["breaking"] = "false", "false" // buf cannot load the module's MessageSet
		in["cpu-cost"] = "off"                        // backlogs are sized from the exact sizes, not the counts
		in["pipeline"], in["broker"], in["pipeline-messages"], in["pipeline-bytes"] = "true", "embedded", "20000", "1MiB"
		in["pipeline-formats"] = "all" // each format's backlog sized by its own bytes
	})
	if len(r.Errors) != 0 || len(r.Pipeline) != 4 {
		t.Fatalf("errors %v, pipeline %+v, plan %+v", r.Errors, r.Pipeline, r.Cut)
	}
	mean := map[string]float64{} // by message/format
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			mean[m.Name+"/"+f.Format] = f.Size.Head
		}
	}
	for _, p := range r.Pipeline {
		b := p.Backlog
		if p.Compression != "zstd" {
			t.Errorf("%s/%s: the producer compressed with %q, not the compression input's zstd", p.Message, p.Format, p.Compression)
		}
		if b == nil || p.Base == nil || p.Head == nil {
			t.Fatalf("%s/%s: backlog %+v, base %+v, head %+v", p.Message, p.Format, b, p.Base, p.Head)
		}
		switch p.Message {
		case "batch.v1.LogBatch": // ~12 kB of JSON a record: 1 MiB holds 86; fewer bytes of protobuf, more records
			m := mean[p.Message+"/"+p.Format]
			if want := int64(float64(1<<20) / m); b.N != want || b.BudgetBytes != 1<<20 || b.Format != p.Format || b.MeanBytes != m {
				t.Errorf("%s/%s: backlog %+v, want N %d = 1 MiB / %.1f B of %s", p.Message, p.Format, b, want, m, p.Format)
			}
		case "batch.v1.Attribute": // ~50 B of JSON: 20,000 fit in 1 MiB
			if b.N != 20000 || b.BudgetBytes != 0 || b.Format != p.Format {
				t.Errorf("%s/%s: backlog %+v, want the count asked for", p.Message, p.Format, b)
			}
		}
	}
	if e := r.Env; e.PipelineN != 20000 || e.PipelineBytes != 1<<20 || e.BrokerPeakRSSBytes <= 0 || e.ConsumerPeakRSSBytes <= 0 {
		t.Errorf("env %+v", e)
	}
}
