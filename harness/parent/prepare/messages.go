package prepare

import (
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// resolveMessages checks every requested name against the schema's own files
// (not its imports); with none requested it returns every top-level message.
func resolveMessages(img *image, requested []string) ([]string, error) {
	var available []string
	img.files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if !img.own[fd.Path()] {
			return true
		}
		var walk func(ms protoreflect.MessageDescriptors, top bool)
		walk = func(ms protoreflect.MessageDescriptors, top bool) {
			for i := 0; i < ms.Len(); i++ {
				m := ms.Get(i)
				if m.IsMapEntry() {
					continue
				}
				if top || len(requested) > 0 {
					available = append(available, string(m.FullName()))
				}
				walk(m.Messages(), false)
			}
		}
		walk(fd.Messages(), true)
		return true
	})
	sort.Strings(available)
	if len(requested) == 0 {
		if len(available) == 0 {
			return nil, exitcode.BadInput("--buf-input: the schemas declare no messages wiregate can measure; add a message or point --buf-input elsewhere")
		}
		return available, nil
	}
	set := map[string]bool{}
	for _, a := range available {
		set[a] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range requested {
		if !set[r] {
			return nil, notAMessage(img, r, available)
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// notAMessage says why a requested name cannot be measured: it was skipped,
// it names something other than a message, or nothing at all.
func notAMessage(img *image, name string, available []string) error {
	for _, s := range img.skipped {
		if s.Message == name {
			return exitcode.BadInput("--messages: %s in %s cannot be measured: it is %s; leave it out of --messages", name, s.File, s.Reason)
		}
	}
	if d, err := img.files.FindDescriptorByName(protoreflect.FullName(name)); err == nil {
		if img.own[d.ParentFile().Path()] {
			return exitcode.BadInput("--messages: %s is %s, not a message%s", name, describe(d), closeNames(name, available))
		}
		return exitcode.BadInput("--messages: %s is declared in %s, which the schemas import; wiregate measures the messages of --buf-input's own files",
			name, d.ParentFile().Path())
	}
	if img.files.NumFilesByPackage(protoreflect.FullName(name)) > 0 {
		var in []string
		for _, a := range available {
			if strings.HasPrefix(a, name+".") && len(in) < 3 {
				in = append(in, a)
			}
		}
		return exitcode.BadInput("--messages: %s is a package, not a message; name its messages (%s)", name, strings.Join(in, ", "))
	}
	return exitcode.BadInput("--messages: %q is not a message in the schemas%s", name, suggest(name, available))
}

// describe names what kind of declaration d is.
func describe(d protoreflect.Descriptor) string {
	switch d := d.(type) {
	case protoreflect.EnumDescriptor:
		return "an enum"
	case protoreflect.EnumValueDescriptor:
		return "a value of enum " + string(d.Parent().FullName())
	case protoreflect.ServiceDescriptor:
		return "a service"
	case protoreflect.MethodDescriptor:
		return "an rpc of service " + string(d.Parent().FullName()) + " (its request is " + string(d.Input().FullName()) + ")"
	case protoreflect.FieldDescriptor:
		if d.IsExtension() {
			return "an extension of " + string(d.ContainingMessage().FullName())
		}
		return "a field of " + string(d.ContainingMessage().FullName())
	case protoreflect.OneofDescriptor:
		return "a oneof of " + string(d.Parent().FullName())
	case protoreflect.MessageDescriptor:
		return "a map entry"
	}
	return "not a message"
}

// closeNames is suggest without the fallback list of every message.
func closeNames(name string, available []string) string {
	if s := suggest(name, available); strings.HasPrefix(s, "; did you mean") {
		return s
	}
	return ""
}

// suggest names the closest messages, by edit distance or shared short name.
func suggest(name string, available []string) string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	short := name[strings.LastIndex(name, ".")+1:]
	for _, a := range available {
		d := distance(strings.ToLower(name), strings.ToLower(a))
		if strings.EqualFold(a[strings.LastIndex(a, ".")+1:], short) {
			d = 0
		}
		if d <= 3 || d <= len(name)/4 {
			cs = append(cs, cand{a, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	if len(cs) == 0 {
		if len(available) > 8 {
			available = available[:8]
		}
		return "; available: " + strings.Join(available, ", ")
	}
	var names []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		names = append(names, c.name)
	}
	return "; did you mean " + strings.Join(names, " or ") + "?"
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// presentMessages keeps the names files declares as messages.
func presentMessages(files *protoregistry.Files, names []string) []string {
	var out []string
	for _, n := range names {
		if d, err := files.FindDescriptorByName(protoreflect.FullName(n)); err == nil {
			if _, ok := d.(protoreflect.MessageDescriptor); ok {
				out = append(out, n)
			}
		}
	}
	return out
}
