package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The real-shaped corpus: records written the way services write logs and
// spans, independent of the generator's rules. Names repeat with a skew
// (a few events make most of the log), messages are templates with a
// number or a name filled in, trace and span ids are random bytes shared
// by the records of one trace, timestamps advance a few milliseconds a
// record, durations are log-normal.

var (
	services = []string{"checkout", "payments", "inventory", "search", "gateway", "accounts"}
	hosts    = []string{"ip-10-0-1-17", "ip-10-0-1-23", "ip-10-0-2-41", "ip-10-0-2-42", "ip-10-0-3-8", "ip-10-0-3-9", "ip-10-0-4-12", "ip-10-0-4-30"}
	events   = []string{"request.received", "request.completed", "cache.miss", "cache.hit", "db.query", "db.slow_query",
		"auth.token_refreshed", "payment.authorized", "payment.declined", "order.created", "order.shipped", "retry.scheduled",
		"queue.enqueued", "queue.dequeued", "feature_flag.evaluated", "rate_limit.exceeded"}
	templates = map[string]string{
		"request.received": "received %s request", "request.completed": "completed in %d ms", "cache.miss": "cache miss for key %s",
		"db.slow_query": "query took %d ms", "payment.declined": "card declined: %s", "retry.scheduled": "retry %d scheduled",
	}
	routes  = []string{"/api/v1/orders", "/api/v1/cart", "/api/v1/search", "/api/v1/login", "/healthz"}
	methods = []string{"GET", "GET", "GET", "POST", "PUT", "DELETE"}
	spans   = []string{"HTTP GET", "HTTP POST", "SELECT orders", "UPDATE inventory", "redis GET", "kafka produce", "grpc Charge", "render"}
	kinds   = []string{"SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_INTERNAL", "SPAN_KIND_PRODUCER"}
)

// epochMs is the corpus's first timestamp.
const epochMs = 1793620800000

// zipf picks from vs, the first ones far likelier.
func zipf(r *rand.Rand, z *rand.Zipf, vs []string) string {
	return vs[int(z.Uint64())%len(vs)]
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func logNormalMs(r *rand.Rand) int64 {
	return int64(math.Exp(3 + 1.2*r.NormFloat64()))
}

// corpus is 256 real-shaped records of mt, or nil when it has none.
func corpus(mt protoreflect.MessageType) []proto.Message {
	r := rand.New(rand.NewPCG(44, 1))
	z := rand.NewZipf(r, 1.3, 1, 63)
	var out []proto.Message
	now := int64(epochMs)
	var trace []byte
	var parent []byte
	for i := 0; i < 256; i++ {
		m := mt.New()
		set := func(name string, v any) {
			m.Set(m.Descriptor().Fields().ByName(protoreflect.Name(name)), protoreflect.ValueOf(v))
		}
		attrs := func(field string, kv map[string]string) {
			f := m.Descriptor().Fields().ByName(protoreflect.Name(field))
			mp := m.Mutable(f).Map()
			for k, v := range kv {
				mp.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfString(v))
			}
		}
		now += 1 + r.Int64N(40)
		if i%5 == 0 { // a trace's records come together
			trace, parent = randomBytes(r, 16), nil
		}
		switch mt.Descriptor().FullName() {
		case "obs.v1.LogRecord":
			ev := zipf(r, z, events)
			set("timestamp", now)
			set("level", zipf(r, z, []string{"INFO", "WARN", "ERROR", "DEBUG"}))
			set("service", zipf(r, z, services))
			set("event_name", ev)
			msg := ev
			if t, ok := templates[ev]; ok {
				switch ev {
				case "request.received", "cache.miss", "payment.declined":
					msg = fmt.Sprintf(t, zipf(r, z, []string{"GET", "POST", "user:profile", "insufficient_funds", "expired_card"}))
				default:
					msg = fmt.Sprintf(t, logNormalMs(r))
				}
			}
			set("message", msg)
			set("trace_id", trace)
			set("host", hosts[r.IntN(len(hosts))])
			set("duration_ms", int32(logNormalMs(r)))
			attrs("attributes", map[string]string{"http.method": zipf(r, z, methods), "http.route": zipf(r, z, routes)})
		case "obs.v1.Span":
			id := randomBytes(r, 8)
			set("trace_id", trace)
			set("span_id", id)
			if parent != nil {
				set("parent_span_id", parent)
			}
			parent = id
			set("name", zipf(r, z, spans))
			set("kind", zipf(r, z, kinds))
			set("start_time", now)
			set("end_time", now+logNormalMs(r))
			set("status_code", int32(zipf(r, z, []string{"0", "0", "1", "2"})[0]-'0'))
			set("service_name", zipf(r, z, services))
			attrs("attributes", map[string]string{"http.method": zipf(r, z, methods), "http.status_code": zipf(r, z, []string{"200", "200", "201", "404", "500"})})
		default:
			return nil
		}
		out = append(out, m.Interface())
	}
	return out
}
