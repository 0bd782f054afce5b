// Package prepare turns a buf input and a list of messages into a bench
// program: buf build, buf generate with protoc-gen-go, protoc-gen-go-vtproto
// and protoc-gen-wiregate, then go build of a small module that links the
// generated code with the harness runner. The result is content-addressed:
// unchanged schemas and harness reuse the binary, and the Go build cache
// makes even a fresh directory cheap.
package prepare

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/exitcode"
)

// Options say what to prepare.
type Options struct {
	BufInput   string   // directory holding buf.yaml
	Buf        string   // buf binary; found by FindBuf when empty
	Messages   []string // fully qualified names; empty = every top-level message
	HarnessDir string   // this module's source, linked into the bench program
	CacheDir   string   // where prepared programs live; default user cache dir
	// SkipMissing drops requested messages the schemas do not declare
	// instead of failing: the base side of a PR that adds a message.
	SkipMissing bool
}

// Result is a prepared bench program.
type Result struct {
	Binary   string             `json:"binary"`
	Messages []string           `json:"messages"`
	Dir      string             `json:"dir"`
	Reused   bool               `json:"reused"` // the binary was already built for these exact inputs
	Build    time.Duration      `json:"-"`
	Total    time.Duration      `json:"-"`
	Seconds  float64            `json:"seconds"`
	Timings  map[string]float64 `json:"timings"`
}

const benchModule = "wiregate.local/bench"

// Prepare builds (or reuses) the bench program for opts.
func Prepare(ctx context.Context, opts Options) (*Result, error) {
	start := time.Now()
	res := &Result{Timings: map[string]float64{}}
	lap := func(name string, t time.Time) { res.Timings[name] = time.Since(t).Seconds() }
	if err := checkBufInput(opts.BufInput); err != nil {
		return nil, err
	}
	harnessDir, err := findHarness(opts.HarnessDir)
	if err != nil {
		return nil, err
	}
	buf, err := FindBuf(opts.Buf, opts.BufInput, harnessDir)
	if err != nil {
		return nil, err
	}
	cache, err := cacheDir(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	defer os.RemoveAll(tmp)

	t := time.Now()
	image := filepath.Join(tmp, "image.binpb")
	own := filepath.Join(tmp, "own.binpb")
	if _, err := runBuf(ctx, buf, opts.BufInput, "build", "-o", image); err != nil {
		return nil, err
	}
	if _, err := runBuf(ctx, buf, opts.BufInput, "build", "--exclude-imports", "--exclude-source-info", "-o", own); err != nil {
		return nil, err
	}
	files, ownNames, imageBytes, err := loadImage(image, own)
	if err != nil {
		return nil, err
	}
	lap("buf_build", t)
	requested := opts.Messages
	if opts.SkipMissing {
		requested = presentMessages(files, requested)
		if len(opts.Messages) > 0 && len(requested) == 0 {
			return &Result{Messages: nil}, nil
		}
	}
	msgs, err := resolveMessages(files, ownNames, requested)
	if err != nil {
		return nil, err
	}
	res.Messages = msgs

	srcHash, err := hashSources(harnessDir)
	if err != nil {
		return nil, err
	}
	key := hashOf(imageBytes, []byte(strings.Join(msgs, ",")), []byte(srcHash), []byte(runtime.Version()))
	res.Dir = filepath.Join(cache, "bench", key[:20])
	res.Binary = filepath.Join(res.Dir, benchprog.ProgramName)
	if _, err := os.Stat(res.Binary); err == nil {
		res.Reused = true
		res.Total = time.Since(start)
		res.Seconds = res.Total.Seconds()
		return res, nil
	}

	t = time.Now()
	plugins, err := buildPlugins(ctx, harnessDir, filepath.Join(cache, "plugins", srcHash[:20]))
	if err != nil {
		return nil, err
	}
	lap("plugins", t)

	t = time.Now()
	work := filepath.Join(tmp, "module")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	if err := generate(ctx, buf, opts.BufInput, image, work, benchModule, plugins, msgs); err != nil {
		return nil, err
	}
	lap("buf_generate", t)

	t = time.Now()
	if err := writeModule(work, harnessDir); err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, "wiregate-bench")
	if err := goBuild(ctx, work, out, "."); err != nil {
		return nil, fmt.Errorf("build the bench program: %w", err)
	}
	lap("go_build", t)
	res.Build = time.Since(t)
	// Publish atomically: a concurrent prepare of the same key wins or loses
	// the rename, never leaves half a directory.
	if err := os.MkdirAll(filepath.Dir(res.Dir), 0o755); err != nil {
		return nil, err
	}
	if err := os.Rename(work, res.Dir+".tmp-"+filepath.Base(tmp)); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	staged := res.Dir + ".tmp-" + filepath.Base(tmp)
	if err := os.Rename(out, filepath.Join(staged, "wiregate-bench")); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if err := os.Rename(staged, res.Dir); err != nil {
		os.RemoveAll(staged)
		if _, statErr := os.Stat(res.Binary); statErr != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
	}
	res.Total = time.Since(start)
	res.Seconds = res.Total.Seconds()
	return res, nil
}

func loadImage(image, own string) (*protoregistry.Files, map[string]bool, []byte, error) {
	set, err := readSet(image)
	if err != nil {
		return nil, nil, nil, err
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("load buf image: %w", err)
	}
	ownSet, err := readSet(own)
	if err != nil {
		return nil, nil, nil, err
	}
	names := map[string]bool{}
	for _, f := range ownSet.File {
		names[f.GetName()] = true
	}
	// Hash the descriptors without source info, so a comment-only change
	// reuses the prepared program.
	for _, f := range set.File {
		f.SourceCodeInfo = nil
	}
	canon, err := proto.MarshalOptions{Deterministic: true}.Marshal(set)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("hash buf image: %w", err)
	}
	return files, names, canon, nil
}

// generate runs buf generate on the image with the three plugins into out,
// for Go module `module`.
func generate(ctx context.Context, buf, bufInput, image, out, module string, plugins pluginPaths, msgs []string) error {
	tmpl := filepath.Join(filepath.Dir(image), "buf.gen.yaml")
	if err := writeTemplate(tmpl, module, plugins, msgs); err != nil {
		return err
	}
	_, err := runBuf(ctx, buf, bufInput, "generate", image, "--template", tmpl, "-o", out)
	return err
}

// Generate writes the generated Go code (protoc-gen-go, vtproto, plain
// structs) for msgs into out as part of Go module `module`, without building
// a program: for checked-in test fixtures.
func Generate(ctx context.Context, opts Options, module, out string) error {
	buf, err := FindBuf(opts.Buf, opts.BufInput)
	if err != nil {
		return err
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	harnessDir, err := findHarness(opts.HarnessDir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wiregate-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	image := filepath.Join(tmp, "image.binpb")
	if _, err := runBuf(ctx, buf, opts.BufInput, "build", "-o", image); err != nil {
		return err
	}
	plugins, err := buildPlugins(ctx, harnessDir, filepath.Join(tmp, "plugins"))
	if err != nil {
		return err
	}
	return generate(ctx, buf, opts.BufInput, image, out, module, plugins, opts.Messages)
}

// readSet reads a buf image written with -o *.binpb.
func readSet(path string) (*descriptorpb.FileDescriptorSet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read buf image: %w", err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		return nil, fmt.Errorf("parse buf image %s: %w", path, err)
	}
	return &set, nil
}

// writeTemplate writes the buf.gen.yaml (as JSON, which YAML accepts, so
// plugin paths need no YAML escaping).
func writeTemplate(path, module string, p pluginPaths, msgs []string) error {
	opt := "module=" + module
	tmpl := map[string]any{
		"version": "v2",
		"managed": map[string]any{
			"enabled": true,
			"override": []map[string]any{
				{"file_option": "go_package_prefix", "value": module + "/gen"},
			},
		},
		"plugins": []map[string]any{
			{"local": p.goPlugin, "out": ".", "opt": opt},
			{"local": p.vtproto, "out": ".", "opt": []string{opt, "features=marshal+unmarshal+size"}},
			{"local": p.wiregate, "out": ".", "strategy": "all", "opt": []string{opt, "messages=" + strings.Join(msgs, ":")}},
		},
	}
	b, err := json.MarshalIndent(tmpl, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
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
