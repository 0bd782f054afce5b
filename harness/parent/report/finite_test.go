package report

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// filled is a Report with every pointer set, every list and map holding one
// element, down to every float: so every float field report.json can
// carry is reachable, and its path is what NonFinite names.
func filled(t *testing.T) *Report {
	t.Helper()
	r := New()
	fill(reflect.ValueOf(r).Elem(), map[reflect.Type]int{})
	return r
}

func fill(v reflect.Value, depth map[reflect.Type]int) {
	t := v.Type()
	if depth[t] > 1 { // a type that holds itself: once is every field
		return
	}
	depth[t]++
	defer func() { depth[t]-- }()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		fill(v.Elem(), depth)
	case reflect.Slice:
		e := reflect.New(t.Elem()).Elem()
		fill(e, depth)
		v.Set(reflect.Append(reflect.MakeSlice(t, 0, 1), e))
	case reflect.Map:
		k, e := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		if k.Kind() == reflect.String {
			k.SetString("k")
		}
		fill(e, depth)
		m := reflect.MakeMap(t)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				fill(v.Field(i), depth)
			}
		}
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
}

// floatsOf are the settable floats of v with their paths, as NonFinite
// walks them.
func floatsOf(v reflect.Value) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Float64, reflect.Float32:
			out[path] = v
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path+"["+strconv.Itoa(i)+"]")
			}
		case reflect.Map:
			// Map values are not settable: a map's float is set through
			// a copy, below.
			iter := v.MapRange()
			for iter.Next() {
				if iter.Value().Kind() == reflect.Float64 {
					out[path+`["`+iter.Key().String()+`"]`] = reflect.Value{}
				} else {
					walk(iter.Value(), path+`["`+iter.Key().String()+`"]`)
				}
			}
		case reflect.Struct:
			t := v.Type()
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if !f.IsExported() || name == "-" {
					continue
				}
				if name == "" {
					name = f.Name
				}
				p := name
				if path != "" {
					p = path + "." + name
				}
				walk(v.Field(i), p)
			}
		}
	}
	walk(v, "")
	return out
}

// Every float field of the report schema, set to NaN, +Inf or -Inf, is
// named by NonFinite at its path, and Write then writes the minimal
// report (result error, exit 2, the path and its stage named) that
// validates against report.schema.json, never a report the encoder
// refused nor a file missing. A Summary's floats are the exception: its
// MarshalJSON writes an unknown center as null and leaves an unknown
// bound out, so none of them is one JSON cannot hold.
func TestEveryFloatOfTheReportThatIsNotANumberIsCaught(t *testing.T) {
	r := filled(t)
	if bad := NonFinite(r); len(bad) > 0 {
		t.Fatalf("a report of finite figures has %v", bad)
	}
	floats := floatsOf(reflect.ValueOf(r).Elem())
	if len(floats) < 40 {
		t.Fatalf("only %d floats reached: the walk missed fields", len(floats))
	}
	for path, v := range floats {
		if !v.IsValid() {
			continue // a map's: TestAMapsFloatIsCaught
		}
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			old := v.Float()
			v.SetFloat(bad)
			got := NonFinite(r)
			_, encErr := r.encode()
			var nan *NotANumber
			// Only Summary has center, lo and hi.
			inSummary := strings.HasSuffix(path, ".center") || strings.HasSuffix(path, ".lo") || strings.HasSuffix(path, ".hi")
			switch {
			case inSummary:
				if len(got) != 0 || encErr != nil {
					t.Errorf("%s = %v: Summary encodes an unknown figure as null or absent, but NonFinite says %v and encode %v", path, bad, got, encErr)
				}
			case len(got) != 1 || got[0] != path:
				t.Errorf("%s = %v: NonFinite says %v", path, bad, got)
			case !errors.As(encErr, &nan) || len(nan.Paths) != 1 || nan.Paths[0] != path:
				t.Errorf("%s = %v: encode says %v, want it not a number at %s", path, bad, encErr, path)
			}
			v.SetFloat(old)
		}
	}
}

func TestAMapsFloatIsCaught(t *testing.T) {
	r := New()
	r.MeasuringTimes = []MeasuringTime{{Message: "a.B", Noise: map[string][]float64{"json/encode": {1, math.NaN()}}}}
	if got := NonFinite(r); len(got) != 1 || got[0] != `costs[0].noise["json/encode"][1]` {
		t.Errorf("NonFinite: %v", got)
	}
}

func TestAReportWithANaNIsWrittenAsTheMinimalErrorReport(t *testing.T) {
	r := New()
	r.Base, r.Head = Rev{Ref: "main", Sha: "b"}, Rev{Ref: "pr", Sha: "h"}
	r.Stages = []Stage{{Name: "sizes", Seconds: 2}}
	f := r.Format("a.v1.B", "protobuf")
	f.Metrics = append(f.Metrics, Metric{Name: "encode", Unit: "instr/op", Functions: []FunctionCost{{Name: "f", Kind: FunctionKindFunction, InclusiveHead: math.NaN()}}})
	f.Metrics = append(f.Metrics, Metric{Name: "decode", Unit: "sec/op", MDE: ptr(math.Inf(1))})
	r.Conclude()
	path := filepath.Join(t.TempDir(), "report.json")
	if err := r.Write(path); err != nil {
		t.Fatalf("Write: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(b); err != nil {
		t.Fatalf("the minimal report does not validate: %v", err)
	}
	var got Report
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Result != ResultError || got.ExitCode != 2 || r.ExitCode != 2 {
		t.Fatalf("result %q exit %d (in memory %d), want error and 2", got.Result, got.ExitCode, r.ExitCode)
	}
	if got.Base.Sha != "b" || got.Head.Sha != "h" || len(got.Stages) != 1 {
		t.Errorf("the minimal report lost the run's names: %+v %+v %v", got.Base, got.Head, got.Stages)
	}
	if len(got.Violations) != 1 || got.Violations[0].Kind != KindError {
		t.Fatalf("violations %+v", got.Violations)
	}
	d := got.Violations[0].Detail
	for _, want := range []string{"wiregate bug", "not your input", "the cpu stage", "messages[0].formats[0].metrics[0].functions[0].inclusive_head", "and 1 more"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q lacks %q", d, want)
		}
	}
	// Deciding again (a merge, publish) keeps it an error.
	got.Conclude()
	if got.Result != ResultError || got.ExitCode != 2 {
		t.Errorf("Conclude turned the minimal report into %s/%d", got.Result, got.ExitCode)
	}
}

// A Summary whose center benchmath could not compute (NaN) is written as
// null; read back (null is NaN again) and written again, as merge and
// render do, it is the same report, never the minimal error report.
func TestASummaryOfUnknownCenterRoundTrips(t *testing.T) {
	r := New()
	r.Base, r.Head = Rev{Ref: "main", Sha: "b"}, Rev{Ref: "pr", Sha: "h"}
	f := r.Format("a.v1.B", "json")
	f.Metrics = append(f.Metrics, Metric{Name: "encode", Unit: "sec/op",
		Base: &Summary{Center: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)},
		Head: &Summary{Center: 2, Lo: math.NaN(), Hi: 3, N: 5}})
	r.Conclude()
	result := r.Result
	dir := t.TempDir()
	first := filepath.Join(dir, "first.json")
	if err := r.Write(first); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if r.Result == ResultError {
		t.Fatalf("the report became the minimal error report: %v", r.Violations)
	}
	b1, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(b1); err != nil {
		t.Fatalf("report.json does not validate: %v", err)
	}
	var back Report
	if err := json.Unmarshal(b1, &back); err != nil {
		t.Fatal(err)
	}
	if c := back.Messages[0].Formats[0].Metrics[0].Base.Center; !math.IsNaN(c) {
		t.Fatalf("a null center read back as %v, want NaN", c)
	}
	second := filepath.Join(dir, "second.json")
	if err := back.Write(second); err != nil {
		t.Fatalf("Write again: %v", err)
	}
	b2, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	if back.Result == ResultError || back.Result != result || string(b1) != string(b2) {
		t.Errorf("written again the report became %s (was %s):\n%s\nwant\n%s", back.Result, result, b2, b1)
	}
}

// The encoder's own failure, not only a NaN, ends in the minimal report.
func TestAnEncoderErrorIsWrittenAsTheMinimalErrorReport(t *testing.T) {
	r := New()
	m := Unencodable(r, errors.New("json: unsupported type: chan int"))
	if m.Result != ResultError || !strings.Contains(m.Violations[0].Detail, "unsupported type") || !strings.Contains(m.ExitReason, "report stage") {
		t.Errorf("%+v", m)
	}
}

func TestStageOfNamesWhatMadeTheFigure(t *testing.T) {
	r := New()
	f := r.Format("a.v1.B", "json")
	f.Metrics = []Metric{{Name: "encode", Unit: "instr/op"}, {Name: "encode", Unit: "sec/op"}}
	for path, want := range map[string]string{
		"messages[0].formats[0].metrics[0].noise_floor_pct":              "cpu",
		"messages[0].formats[0].metrics[1].mde_pct":                      "bench",
		"messages[0].formats[0].metrics[1].head.center":                  "bench",
		"messages[0].formats[0].metrics[0].functions[2].inclusive_delta": "cpu",
		"messages[0].formats[0].size.compressed[1].delta_pct":            "sizes",
		"pipeline[3].mde_pct":                                            "pipeline",
		`costs[0].noise["json/encode"][1]`:                               "bench",
		"costs[0].count_seconds":                                         "cpu",
		"plan.budget_seconds":                                            "budget",
		"violations[0].delta_pct":                                        "verdict",
		"messages[0].records.new_fields[0].protobuf_bytes":               "records",
		"history.messages[0].figures[0].values[2]":                       "history",
	} {
		if got := StageOf(r, path); got != want {
			t.Errorf("StageOf(%s) = %s, want %s", path, got, want)
		}
	}
}

func ptr(f float64) *float64 { return &f }
