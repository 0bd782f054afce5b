// Package version says which wiregate this is, from the build info Go
// stamps into every binary: a module version for `go install …@vX.Y.Z`
// (the tag harness/vX.Y.Z), "(devel)" for a build in a checkout.
package version

import (
	"runtime/debug"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Module is the harness module's path, whose version wiregate's is.
const Module = "github.com/wiregate/wiregate/harness"

// Info is what a binary's build info says of it.
type Info struct {
	// Version is the module version ("v0.4.0") or "(devel)".
	Version string
	// Revision is the commit a checkout build was made from, when Go
	// stamped it (-buildvcs), with "+dirty" for uncommitted changes.
	Revision string
	// Go is the toolchain that built the binary.
	Go string
}

// Of reads bi (debug.ReadBuildInfo's); without one, "(devel)".
func Of(bi *debug.BuildInfo, ok bool) Info {
	if !ok || bi == nil {
		return Info{Version: "(devel)"}
	}
	in := Info{Version: bi.Main.Version, Go: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(in.Revision) > 12 {
		in.Revision = in.Revision[:12]
	}
	if dirty && in.Revision != "" {
		in.Revision += "+dirty"
	}
	return in
}

// This is the running binary's.
func This() Info { return Of(debug.ReadBuildInfo()) }

// Release is the version of a tagged release ("v0.4.0"), and false for a
// development build (a checkout's, or an untagged commit's
// pseudo-version): what the module proxy serves at that version.
func (i Info) Release() (string, bool) {
	if !semver.IsValid(i.Version) || module.IsPseudoVersion(i.Version) {
		return "", false
	}
	return i.Version, true
}

// String is "v0.4.0", or "(devel) abcdef123456" for a build that knows its commit.
func (i Info) String() string {
	if i.Revision != "" && i.Version == "(devel)" {
		return i.Version + " " + i.Revision
	}
	return i.Version
}
