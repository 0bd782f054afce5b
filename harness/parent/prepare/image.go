package prepare

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// image is a buf input built, cleared of what cannot be measured, and loaded.
type image struct {
	path     string // the image buf generate reads
	files    *protoregistry.Files
	own      map[string]bool // the input's own files (not its imports)
	canon    []byte          // the descriptors without source info: comments do not change the key
	skipped  []Skip
	editions []string // own files written in an edition, e.g. "a/b.proto is edition 2023"
	groups   []string // group-encoded fields of own files, e.g. "a.B.c in a/b.proto"
}

// buildImage runs buf build on bufInput into dir, comments included (for
// Generate's checked-in code, which people read). The image marks each
// imported file (buf's image file extension), so one build tells the
// user's own files from their imports.
func buildImage(ctx context.Context, buf string, c BufConfig, dir string) (*image, error) {
	return buildImageWith(ctx, buf, c, dir, nil, true)
}

// buildImageWith is buildImage with more files of the input's own: those
// extra makes from the built files (the gate's synthesized Avro-first
// records, package avroschema). With no buf module (noBuf: an Avro-only
// repository) the image is extra's files alone. Without comments, the
// image holds none of the schemas' comments: protoc-gen-go copies a
// comment's lines into the Go code as they are, so a schema could hand
// the Go compiler a directive (//go:build ignore, //go:linkname) in a
// bench program.
func buildImageWith(ctx context.Context, buf string, c BufConfig, dir string, extra Extra, comments bool) (*image, error) {
	full := filepath.Join(dir, "image.binpb")
	set := &descriptorpb.FileDescriptorSet{}
	if extra == nil || !extra.NoBuf() {
		args := []string{"-o", full}
		if !comments {
			args = append(args, "--exclude-source-info")
		}
		if _, err := runBuf(ctx, buf, c.Dir, c.args("build", args...)...); err != nil {
			return nil, explainDeps(c, err)
		}
		var err error
		if set, err = readSet(full); err != nil {
			return nil, err
		}
	}
	img := &image{path: full, own: map[string]bool{}}
	for _, f := range set.GetFile() {
		if isImport(f) {
			continue
		}
		img.own[f.GetName()] = true
		if f.GetSyntax() == "editions" {
			img.editions = append(img.editions, fmt.Sprintf("%s is edition %s", f.GetName(), strings.TrimPrefix(f.GetEdition().String(), "EDITION_")))
		}
	}
	var changed bool
	img.skipped, changed = dropUnmeasurable(set, img.own)
	if extra != nil { // made against what can be loaded: after the drop
		built, err := protodesc.NewFiles(set)
		if err != nil {
			return nil, fmt.Errorf("load buf image of %s: %w", filepath.Join(c.Dir, c.Input), err)
		}
		more, err := extra.Files(built)
		if err != nil {
			return nil, err
		}
		for _, f := range more.GetFile() {
			img.own[f.GetName()] = true
		}
		set.File = append(set.File, more.GetFile()...)
		changed = true
	}
	if changed {
		b, err := proto.Marshal(set)
		if err != nil {
			return nil, fmt.Errorf("write buf image: %w", err)
		}
		img.path = filepath.Join(dir, "measurable.binpb")
		if err := os.WriteFile(img.path, b, 0o644); err != nil {
			return nil, fmt.Errorf("write buf image: %w", err)
		}
	}
	var err error
	if img.files, err = protodesc.NewFiles(set); err != nil {
		return nil, fmt.Errorf("load buf image of %s: %w", filepath.Join(c.Dir, c.Input), err)
	}
	img.files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if img.own[fd.Path()] {
			img.groups = append(img.groups, groupFields(fd.Messages(), fd.Path())...)
		}
		return true
	})
	for _, f := range set.GetFile() {
		f.SourceCodeInfo = nil
	}
	if img.canon, err = (proto.MarshalOptions{Deterministic: true}).Marshal(set); err != nil {
		return nil, fmt.Errorf("hash buf image: %w", err)
	}
	return img, nil
}

// Extra adds files of the input's own to its image: Files gets the files
// buf built (none without a buf module) and returns more; NoBuf says there
// is no buf module to build.
type Extra interface {
	NoBuf() bool
	Files(built *protoregistry.Files) (*descriptorpb.FileDescriptorSet, error)
}

// groupFields lists the group-encoded fields of ms and their nested messages.
func groupFields(ms protoreflect.MessageDescriptors, file string) []string {
	var out []string
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		for j := 0; j < m.Fields().Len(); j++ {
			if f := m.Fields().Get(j); f.Kind() == protoreflect.GroupKind {
				out = append(out, fmt.Sprintf("%s in %s", f.FullName(), file))
			}
		}
		out = append(out, groupFields(m.Messages(), file)...)
	}
	return out
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

// bufExtension is the field of buf's image file extension
// (buf.alpha.image.v1.ImageFileExtension) in each file of an image, and
// isImportField its is_import.
const (
	bufExtension  protowire.Number = 8042
	isImportField protowire.Number = 1
)

// isImport reads buf's is_import mark from f's unknown fields.
func isImport(f *descriptorpb.FileDescriptorProto) bool {
	b := f.ProtoReflect().GetUnknown()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if num == bufExtension && typ == protowire.BytesType {
			ext, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return false
			}
			return extensionIsImport(ext)
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false
		}
		b = b[m:]
	}
	return false
}

func extensionIsImport(b []byte) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if num == isImportField && typ == protowire.VarintType {
			v, _ := protowire.ConsumeVarint(b)
			return v != 0
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false
		}
		b = b[m:]
	}
	return false
}
