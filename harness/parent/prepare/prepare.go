// Package prepare turns a buf input and a list of messages into a bench
// program: buf build, buf generate with protoc-gen-go, protoc-gen-wiregate
// and the plugins the asked-for formats need (protoc-gen-go-vtproto for
// vtprotobuf), then go build of a small module that links the generated
// code with the harness runner. Messages protobuf-go cannot load are left
// out by name (Result.Skipped) and the rest prepared. The result is
// content-addressed: unchanged schemas and harness reuse the binary, and
// the Go build cache makes even a fresh directory cheap.
package prepare

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Options say what to prepare.
type Options struct {
	BufInput   string   // directory holding buf.yaml
	Buf        string   // buf binary; found by FindBuf when empty (nothing judged)
	Messages   []string // fully qualified names; empty = every top-level message
	Formats    []string // formats the program will measure; empty = codec.DefaultNames
	HarnessDir string   // this module's source, linked into the bench program
	CacheDir   string   // where prepared programs live; default user cache dir
	// SkipMissing drops requested messages the schemas do not declare
	// instead of failing: the base side of a PR that adds a message.
	SkipMissing bool
	// Extra adds the input's synthesized files (Avro-first records) to
	// what buf builds, or stands for it when there is no buf module.
	Extra Extra
	// BufConfig is where buf builds BufInput, with which buf.yaml: a gate's
	// resolved config. Nil: buf finds the config in BufInput itself.
	BufConfig *BufConfig
}

// Result is a prepared bench program.
type Result struct {
	Binary   string   `json:"binary"`
	Messages []string `json:"messages"`
	// Skipped are the user's messages wiregate cannot measure, with why;
	// they are left out of Messages (and of the program).
	Skipped []Skip `json:"skipped"`
	// Plugins generated the program's code: protoc-gen-go and
	// protoc-gen-wiregate, and those the asked-for formats need.
	Plugins []string `json:"plugins"`
	// OptIn are the opt-in codec modules linked into the program: those
	// of the asked-for formats (codec.Format.Module), and no others.
	OptIn   []string           `json:"opt_in_modules"`
	Dir     string             `json:"dir"`
	Reused  bool               `json:"reused"` // the binary was already built for these exact inputs
	Build   time.Duration      `json:"-"`
	Total   time.Duration      `json:"-"`
	Seconds float64            `json:"seconds"`
	Timings map[string]float64 `json:"timings"`

	// Fingerprints hash each message's schema closure (fingerprint.go):
	// equal on two sides, the message's code and records are the same.
	Fingerprints map[string]string `json:"fingerprints,omitempty"`
}

const benchModule = "wiregate.local/bench"

// formats parses opts.Formats (a typo is rejected here, before any build).
func (opts Options) formats() ([]codec.Format, error) {
	list := strings.Join(opts.Formats, ",")
	if strings.TrimSpace(list) == "" {
		list = codec.DefaultNames
	}
	return codec.Parse(list)
}

// Prepare builds (or reuses) the bench program for every message opts
// asks for: Load, then Build of all of them.
func Prepare(ctx context.Context, opts Options) (*Result, error) {
	s, err := Load(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if len(s.Messages) == 0 { // SkipMissing, and none of the asked-for messages is declared
		return &Result{Skipped: s.Skipped, Timings: s.timings}, nil
	}
	return s.Build(ctx, s.Messages)
}

// Build generates and builds (or reuses) the bench program for messages,
// which must be among s.Messages. Only what they need is generated and
// compiled (buf generate --type): on a module of 1,000 messages, a program
// for the one a pull request changed builds as fast as for a module of one.
// Building every message of s generates every file, as buf generate does.
func (s *Schema) Build(ctx context.Context, messages []string) (*Result, error) {
	start := time.Now()
	res := &Result{Timings: map[string]float64{}, Skipped: s.Skipped, Plugins: s.plugins, Messages: messages,
		Fingerprints: map[string]string{}}
	for k, v := range s.timings {
		res.Timings[k] = v
	}
	lap := func(name string, t time.Time) { res.Timings[name] = time.Since(t).Seconds() }
	for _, m := range messages {
		fp, ok := s.Fingerprints[m]
		if !ok {
			return nil, fmt.Errorf("prepare: %s is not among the loaded messages", m)
		}
		res.Fingerprints[m] = fp
	}
	types := s.types(messages)
	res.OptIn = s.optIn
	key := hashOf(s.img.canon, []byte(strings.Join(messages, ",")), []byte(strings.Join(types, ",")), []byte(strings.Join(s.plugins, ",")),
		[]byte(strings.Join(s.optIn, ",")), []byte(s.srcHash), []byte(runtime.Version()))
	res.Dir = filepath.Join(s.cache, "bench", key[:20])
	res.Binary = filepath.Join(res.Dir, benchprog.ProgramName)
	finish := func() (*Result, error) {
		used(res.Dir)
		evict(filepath.Dir(res.Dir), keepPrograms, time.Now())
		res.Total = s.loaded + time.Since(start)
		res.Seconds = res.Total.Seconds()
		return res, nil
	}
	if _, err := os.Stat(res.Binary); err == nil {
		res.Reused = true
		return finish()
	}

	t := time.Now()
	built, err := buildPlugins(ctx, s.harnessDir, filepath.Join(s.cache, "plugins", s.srcHash[:20]))
	if err != nil {
		return nil, err
	}
	lap("plugins", t)

	tmp, err := os.MkdirTemp(s.cache, "build-")
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	defer os.RemoveAll(tmp)
	t = time.Now()
	work := filepath.Join(tmp, "module")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	if err := generate(ctx, s.buf, s.img.path, work, benchModule, built, s.plugins, messages, types); err != nil {
		return nil, err
	}
	lap("buf_generate", t)

	t = time.Now()
	if err := writeModule(work, s.harnessDir, s.optIn); err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, "wiregate-bench")
	// Without DWARF (-w; the symbol table stays, which is all callgrind's
	// function names need): Valgrind reads a binary's debug information at
	// every start, ~0.15 s of each count process (docs/design/batches.md).
	// The code is the same.
	if err := prepareDeps(ctx, work, s.optIn); err != nil {
		return nil, err
	}
	if err := goBuild(ctx, work, out, offlineEnv, "-ldflags=-w", "."); err != nil {
		return nil, fmt.Errorf("build the bench program: %w", err)
	}
	lap("go_build", t)
	res.Build = time.Since(t)
	// Publish atomically: a concurrent prepare of the same key wins or loses
	// the rename, never leaves half a directory.
	if err := os.MkdirAll(filepath.Dir(res.Dir), 0o755); err != nil {
		return nil, err
	}
	staged := res.Dir + ".tmp-" + filepath.Base(tmp)
	if err := os.Rename(work, staged); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if err := os.Rename(out, filepath.Join(staged, "wiregate-bench")); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if err := os.Rename(staged, res.Dir); err != nil {
		os.RemoveAll(staged)
		if _, statErr := os.Stat(res.Binary); statErr != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
	}
	return finish()
}

// Generate writes the generated Go code for opts (protoc-gen-go, the
// plugins opts.Formats need, plain structs) into out as part of Go module
// `module`, without building a program: for checked-in test fixtures.
func Generate(ctx context.Context, opts Options, module, out string) error {
	harnessDir, err := findHarness(opts.HarnessDir, opts.CacheDir)
	if err != nil {
		return err
	}
	buf, err := Buf(ctx, opts.Buf, harnessDir, "", opts.CacheDir)
	if err != nil {
		return err
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	formats, err := opts.formats()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wiregate-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	img, err := buildImage(ctx, buf, opts.bufConfig(), tmp)
	if err != nil {
		return err
	}
	names, err := plugins(formats, img)
	if err != nil {
		return err
	}
	built, err := buildPlugins(ctx, harnessDir, filepath.Join(tmp, "plugins"))
	if err != nil {
		return err
	}
	return generate(ctx, buf, img.path, out, module, built, names, opts.Messages, nil)
}

func hashOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func cacheDir(explicit string) (string, error) {
	dir := explicit
	if dir == "" {
		dir = os.Getenv("WIREGATE_CACHE")
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		dir = filepath.Join(base, "wiregate")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", exitcode.BadInput("cache directory %s: %v; set WIREGATE_CACHE to a writable directory", dir, err)
	}
	return filepath.Abs(dir)
}
