package prepare

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Schema is one buf input loaded: built into an image and resolved into
// the messages to measure, each with its fingerprint. Loading is cheap
// (buf build, no code generation), so the gate loads both sides first,
// finds what changed, and builds programs only for that (Build).
type Schema struct {
	// Messages are the messages opts asked for (every top-level message
	// when none), those the schemas declare when opts.SkipMissing.
	Messages []string
	// Skipped are the user's messages wiregate cannot measure, with why.
	Skipped []Skip
	// Fingerprints hash each message's schema closure (fingerprint.go).
	Fingerprints map[string]string
	// Files are the image's descriptors, imports included: what the parent
	// reads to generate and pair records.
	Files *protoregistry.Files

	opts       Options
	img        *image
	plugins    []string
	optIn      []string // opt-in codec modules the formats link (optin.go)
	buf        string
	harnessDir string
	cache      string
	srcHash    string
	tmp        string
	loaded     time.Duration
	timings    map[string]float64
}

// Load builds opts.BufInput's image and resolves its messages.
func Load(ctx context.Context, opts Options) (*Schema, error) {
	start := time.Now()
	if opts.BufConfig == nil && (opts.Extra == nil || !opts.Extra.NoBuf()) {
		if err := checkBufInput(opts.BufInput); err != nil {
			return nil, err
		}
	}
	harnessDir, err := findHarness(opts.HarnessDir, opts.CacheDir)
	if err != nil {
		return nil, err
	}
	buf, err := Buf(ctx, opts.Buf, harnessDir, "", opts.CacheDir)
	if err != nil {
		return nil, err
	}
	cache, err := cacheDir(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	formats, err := opts.formats()
	if err != nil {
		return nil, err
	}
	s := &Schema{opts: opts, buf: buf, harnessDir: harnessDir, cache: cache, timings: map[string]float64{}}
	if s.tmp, err = os.MkdirTemp(cache, "load-"); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			s.Close()
		}
	}()
	if s.img, err = buildImageWith(ctx, buf, opts.bufConfig(), s.tmp, opts.Extra, false); err != nil {
		return nil, err
	}
	s.timings["buf_build"] = time.Since(start).Seconds()
	s.Files = s.img.files
	s.Skipped = append([]Skip{}, s.img.skipped...) // [] rather than null in JSON
	s.optIn = optInModules(formats)
	if s.plugins, err = plugins(formats, s.img); err != nil {
		return nil, err
	}
	requested := opts.Messages
	if opts.SkipMissing {
		requested = presentMessages(s.img.files, requested)
	}
	if !opts.SkipMissing || len(opts.Messages) == 0 || len(requested) > 0 {
		if s.Messages, err = resolveMessages(s.img, requested); err != nil {
			return nil, err
		}
	}
	if s.Fingerprints, err = fingerprints(s.img.files, s.Messages); err != nil {
		return nil, err
	}
	if s.srcHash, err = hashSources(harnessDir); err != nil {
		return nil, err
	}
	s.loaded = time.Since(start)
	ok = true
	return s, nil
}

// Harness identifies the wiregate harness that measures s (its sources'
// hash): figures measured by another harness may differ.
func (s *Schema) Harness() string { return s.srcHash }

// Close removes the loaded image.
func (s *Schema) Close() {
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
		s.tmp = ""
	}
}

// Message is the loaded descriptor of one of s's messages.
func (s *Schema) Message(name string) (protoreflect.MessageDescriptor, error) {
	d, err := s.Files.FindDescriptorByName(protoreflect.FullName(name))
	if err != nil {
		return nil, fmt.Errorf("prepare: %s: %w", name, err)
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("prepare: %s is not a message", name)
	}
	return md, nil
}

// types are the --type filters that generate what messages need: each
// message, and, for one whose closure holds an Any, every message of its
// file (the records pack one of them); none when messages are all of s's
// (then every file is generated, as buf generate does without filters).
func (s *Schema) types(messages []string) []string {
	if sameSet(messages, s.Messages) {
		return nil
	}
	set := map[string]bool{}
	for _, m := range messages {
		set[m] = true
		md, err := s.Message(m)
		if err != nil || !holdsAny(md, map[protoreflect.FullName]bool{}) {
			continue
		}
		all := md.ParentFile().Messages()
		for i := 0; i < all.Len(); i++ {
			set[string(all.Get(i).FullName())] = true
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// holdsAny is whether a google.protobuf.Any is in md's closure.
func holdsAny(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if md.FullName() == "google.protobuf.Any" {
		return true
	}
	if seen[md.FullName()] {
		return false
	}
	seen[md.FullName()] = true
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		if m := fields.Get(i).Message(); m != nil && holdsAny(m, seen) {
			return true
		}
	}
	return false
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
}
