package prepare

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// The protoc plugins prepare builds from this module, so their versions
// are the ones go.mod pins.
const (
	pluginGo       = "protoc-gen-go"
	pluginVTProto  = "protoc-gen-go-vtproto"
	pluginWiregate = "protoc-gen-wiregate"
)

// pluginSources are the packages the plugins are built from.
var pluginSources = map[string]string{
	pluginGo:       "google.golang.org/protobuf/cmd/protoc-gen-go",
	pluginVTProto:  "github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto",
	pluginWiregate: "./cmd/protoc-gen-wiregate",
}

// pluginOpts are each plugin's options besides module=.
var pluginOpts = map[string][]string{
	pluginVTProto: {"features=marshal+unmarshal+size"},
}

// plugins lists the plugins to run for formats: protoc-gen-go and
// protoc-gen-wiregate always (every format starts from their types), plus
// each format's own. A format whose plugin cannot read the image's
// editions files is one line naming both.
func plugins(formats []codec.Format, img *image) ([]string, error) {
	out := []string{pluginGo}
	for _, f := range formats {
		if f.Plugin == "" {
			continue
		}
		if f.NoEditions && len(img.editions) > 0 {
			return nil, exitcode.BadInput("--formats %s: %s cannot generate code for files written in an edition (%s); leave %s out of --formats to measure the others",
				f.Name, f.Plugin, img.editions[0], f.Name)
		}
		if f.NoGroups && len(img.groups) > 0 {
			return nil, exitcode.BadInput("--formats %s: %s generates broken code for groups (field %s is one); leave %s out of --formats to measure the others",
				f.Name, f.Plugin, img.groups[0], f.Name)
		}
		out = append(out, f.Plugin)
	}
	return append(out, pluginWiregate), nil
}

// generate runs buf generate on image with the named plugins into out, for
// Go module `module`; with types, only for those types and what they need.
func generate(ctx context.Context, buf, image, out, module string, built map[string]string, names, msgs, types []string) error {
	dir, err := os.MkdirTemp("", "wiregate-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tmpl := filepath.Join(dir, "buf.gen.yaml")
	if err := writeTemplate(tmpl, module, built, names, msgs); err != nil {
		return err
	}
	args := []string{"generate", image, "--template", tmpl, "-o", out}
	for _, t := range types {
		args = append(args, "--type", t)
	}
	_, err = runBuf(ctx, buf, dir, args...) // beside the template: the image needs no buf.yaml, so none is searched for
	return err
}

// writeTemplate writes the buf.gen.yaml (as JSON, which YAML accepts, so
// plugin paths need no YAML escaping).
func writeTemplate(path, module string, built map[string]string, names, msgs []string) error {
	var entries []map[string]any
	for _, n := range names {
		opts := append([]string{"module=" + module}, pluginOpts[n]...)
		e := map[string]any{"local": built[n], "out": ".", "opt": opts}
		if n == pluginWiregate {
			// One package for every file's plain structs.
			e["strategy"] = "all"
			e["opt"] = append(opts, "messages="+strings.Join(msgs, ":"))
		}
		entries = append(entries, e)
	}
	tmpl := map[string]any{
		"version": "v2",
		"managed": map[string]any{
			"enabled": true,
			"override": []map[string]any{
				{"file_option": "go_package_prefix", "value": module + "/gen"},
			},
		},
		"plugins": entries,
	}
	b, err := json.MarshalIndent(tmpl, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
