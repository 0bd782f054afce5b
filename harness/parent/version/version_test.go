package version

import (
	"runtime/debug"
	"testing"
)

func TestAReleaseIsATaggedVersionNotACheckoutOrAPseudoVersion(t *testing.T) {
	for _, c := range []struct {
		version string
		release bool
	}{
		{"v0.4.0", true},
		{"v1.2.3-rc.1", true},
		{"(devel)", false},
		{"", false},
		{"v0.0.0-20261129024513-1d2e3f4a5b6c", false},
		{"v0.4.1-0.20261129024513-1d2e3f4a5b6c", false},
	} {
		in := Of(&debug.BuildInfo{Main: debug.Module{Path: Module, Version: c.version}, GoVersion: "go1.26.8"}, true)
		if _, ok := in.Release(); ok != c.release {
			t.Errorf("%q: release %v", c.version, ok)
		}
	}
	dev := Of(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, true)
	if dev.String() != "(devel) 0123456789ab+dirty" {
		t.Error(dev.String())
	}
	if Of(nil, false).String() != "(devel)" {
		t.Error("no build info is not (devel)")
	}
}
