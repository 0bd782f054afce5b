package history

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// figures is a point as a repository with 4 messages in 3 formats would
// record it: size, and allocs/op and instr/op for encode and decode.
func figures(sha string, n int) Point {
	p := Point{Sha: sha, Ref: "main", Date: "2026-11-22T10:00:00Z"}
	for m := range 4 {
		for _, f := range []string{"json", "protobuf", "avro"} {
			name := fmt.Sprintf("pkg.v1.Message%d", m)
			p.Figures = append(p.Figures, Figure{Message: name, Format: f, Metric: SizeMetric, Unit: SizeUnit, Value: float64(100 + n)})
			for _, op := range []string{"encode", "decode"} {
				for _, u := range exactUnits {
					p.Figures = append(p.Figures, Figure{Message: name, Format: f, Metric: op, Unit: u, Value: float64(n)})
				}
			}
		}
	}
	return p
}

// BenchmarkAppendAfter1000Points is the cost of recording one point on a
// branch that already holds 1000 (a local bare origin: no network).
// go test ./history -run '^$' -bench . -benchtime 10x
func BenchmarkAppendAfter1000Points(b *testing.B) {
	ctx := context.Background()
	bare := origin(b)
	dir := clone(b, bare)
	s := Store{Dir: dir, Branch: "wiregate-data"}
	size := seed(b, s, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Append(ctx, figures(sha(100000+i), i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size)/1000, "B/point")
}

// BenchmarkReadAfter1000Points is what a pull request pays to read it.
func BenchmarkReadAfter1000Points(b *testing.B) {
	ctx := context.Background()
	bare := origin(b)
	s := Store{Dir: clone(b, bare), Branch: "wiregate-data"}
	seed(b, s, 1000)
	reader := Store{Dir: clone(b, bare), Branch: "wiregate-data"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		points, _, err := reader.Read(ctx)
		if err != nil || len(points) != 1000 {
			b.Fatal(len(points), err)
		}
	}
}

// seed pushes n points to s's branch in one commit and returns the file's size.
func seed(b *testing.B, s Store, n int) int {
	ctx := context.Background()
	var data []byte
	for i := range n {
		line, err := json.Marshal(figures(sha(i+1), i))
		if err != nil {
			b.Fatal(err)
		}
		data = append(append(data, line...), '\n')
	}
	commit, err := s.commit(ctx, "", data, Point{Sha: "seed", Ref: "main"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.push(ctx, commit); err != nil {
		b.Fatal(err)
	}
	return len(data)
}
