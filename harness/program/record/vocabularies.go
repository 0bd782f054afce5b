package record

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Small vocabularies for status-like fields: real systems repeat a handful
// of values there, and their size is part of what a format costs.
var vocab = map[string][]string{
	"status":   {"ok", "ok", "ok", "degraded", "offline", "maintenance"},
	"state":    {"active", "pending", "suspended", "closed"},
	"region":   {"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1", "ap-northeast-1"},
	"country":  {"US", "DE", "FR", "IN", "JP", "BR", "GB"},
	"currency": {"USD", "EUR", "GBP", "JPY", "INR"},
	"level":    {"debug", "info", "warn", "error"},
	"type":     {"sensor", "gateway", "controller", "meter"},
	"kind":     {"create", "update", "delete"},
	"category": {"books", "electronics", "garden", "toys", "grocery"},
	"channel":  {"web", "mobile", "partner", "store"},
	"source":   {"web", "ios", "android", "api"},
	"tier":     {"free", "pro", "enterprise"},
}

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"india", "juliet", "kilo", "lima", "metric", "sensor", "north", "south", "reading",
	"update", "batch", "signal", "cloud", "edge", "stream", "order", "priority", "stable"}

// Per-field vocabulary sizes: how many distinct values one field's
// records draw from. A name, key or kind repeats a few dozen values at
// most; free text (log messages, notes) repeats its templates.
const (
	namesPerField     = 16
	sentencesPerField = 48
)

// textNames are the names whose values are free text: sentences, drawn
// from the field's own set of templates.
var textNames = []string{"message", "msg", "description", "text", "body", "note", "comment", "summary", "reason", "detail", "title", "error"}

// stringValue is one value of a string field named name (lower case):
// a random id where the name says id (ids.go), a status-like word, a
// version, an email or a URL where the name says so, and otherwise a
// value of the field's own vocabulary (key: vocabularyKey), drawn so that
// a few values are common and the rest rare, as names in real records
// are.
func stringValue(name, key string, r *rand.Rand) string {
	if s := idShapeOf(name); s != notID {
		return idString(name, s, r)
	}
	for key, vs := range vocab {
		if name == key || strings.HasSuffix(name, "_"+key) || strings.HasSuffix(name, key+"s") {
			return vs[r.IntN(len(vs))]
		}
	}
	switch {
	case strings.Contains(name, "firmware") || strings.Contains(name, "version"):
		return fmt.Sprintf("v%d.%d.%d", 1+r.IntN(4), r.IntN(10), r.IntN(20))
	case strings.Contains(name, "email"):
		return fmt.Sprintf("%s.%s@example.com", words[r.IntN(len(words))], words[r.IntN(len(words))])
	case strings.Contains(name, "url") || strings.Contains(name, "uri"):
		return fmt.Sprintf("https://example.com/%s/%d", words[r.IntN(len(words))], r.IntN(10000))
	}
	vs := vocabulary(key, isText(name))
	return vs[skewed(r, len(vs))]
}

// skewed is an index below n, small ones far likelier (index n·u²): the
// first values of a vocabulary are the common ones.
func skewed(r *rand.Rand, n int) int {
	u := r.Float64()
	return min(int(float64(n)*u*u), n-1)
}

// vocabularyKey is what a field's vocabulary is seeded by: the path of
// field numbers from the root message without list and map positions
// (every element of a list draws from one vocabulary), and the number of
// the value within it (a map's key 1, its value 2). Not the field's name:
// a rename keeps the values even where records are generated apart, as
// every field's own stream does (generate.go).
func vocabularyKey(path string, number protoreflect.FieldNumber) string {
	var b strings.Builder
	for depth := 0; len(path) > 0; path = path[1:] {
		switch c := path[0]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	fmt.Fprintf(&b, "/%d", number)
	return b.String()
}

// vocabularies caches each vocabulary (a field's values are drawn once per
// record).
var vocabularies sync.Map // key and text → []string

// vocabulary is one field's own set of values, from a stream seeded by its
// key alone: the same on both sides and in every record. Free text gets
// sentences of 3–8 words, other fields names of one or two words
// ("order-update").
func vocabulary(key string, text bool) []string {
	cacheKey := fmt.Sprintf("%s|%t", key, text)
	if vs, ok := vocabularies.Load(cacheKey); ok {
		return vs.([]string)
	}
	h := fnv.New64a()
	h.Write([]byte(cacheKey))
	r := rand.New(rand.NewPCG(Seed, h.Sum64()))
	var vs []string
	if text {
		for range sentencesPerField {
			parts := make([]string, 3+r.IntN(6))
			for i := range parts {
				parts[i] = words[r.IntN(len(words))]
			}
			vs = append(vs, strings.Join(parts, " "))
		}
	} else {
		for range namesPerField {
			v := words[r.IntN(len(words))]
			if r.IntN(2) == 0 {
				v += "-" + words[r.IntN(len(words))]
			}
			vs = append(vs, v)
		}
	}
	actual, _ := vocabularies.LoadOrStore(cacheKey, vs)
	return actual.([]string)
}

// isText says whether a lower-case field name holds free text.
func isText(name string) bool {
	for _, t := range textNames {
		if strings.Contains(name, t) {
			return true
		}
	}
	return false
}
