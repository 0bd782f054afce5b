package cpucost

import (
	"strings"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// A function's line in a profile, named as a Go developer reads it: its
// package's last element and the function ("protowire.ConsumeVarint",
// "json.(*decodeState).object"), the bench program's generated code marked
// KindGenerated, and two groups whose members mean nothing apart: the
// runtime's allocation (mallocgc and its variants, the GC's write barriers
// and the marking an allocation assists, memclr, growslice…) and the
// protobuf runtime's table-driven decoder (its unmarshal and consume
// paths, but not the map path, which a reader asks about by name).
const (
	KindFunction  = report.FunctionKindFunction
	KindGenerated = report.FunctionKindGenerated
	KindGroup     = report.FunctionKindGroup

	GroupAllocation = "allocation"
	GroupDecoder    = "protobuf decoder"
)

// benchModulePrefix is the bench program's module (prepare's benchModule):
// the generated message types and codecs live below it.
const benchModulePrefix = "wiregate.local/bench"

// allocation are the runtime functions, by their name after "runtime.",
// that allocate, clear what they allocate, or do the GC's work an
// allocation or a pointer write pays for (prefixes).
var allocation = []string{
	"mallocgc", "newobject", "newarray", "makeslice", "growslice", "makemap", "memclr", "nextFreeFast",
	"gcWriteBarrier", "wbBuf", "wbZero", "wbMove", "bulkBarrier", "typedmemmove", "typedslicecopy", "typedmemclr",
	"heapBits", "heapSetType", "rawstring", "rawbyteslice", "rawruneslice", "publicationBarrier",
	"deductAssistCredit", "gcAssistAlloc", "gcDrain", "gcBgMarkWorker", "gcStart", "gcMark", "scanobject", "scanblock",
	"scanstack", "scanframe", "greyobject", "markroot", "shade", "findObject", "spanOf", "sweepone", "profilealloc",
	"(*mspan)", "(*mcache)", "(*mcentral)", "(*mheap)", "(*gcWork)", "(*pageAlloc)", "(*pageCache)", "(*sweepLocked)",
	"(*gcControllerState)", "(*gcBits)", "(*spanSet)", "(*consistentHeapStats)", "(*gcCPULimiterState)",
}

// uncachedAssertion are the runtime functions of a type assertion whose
// site's cache missed (slowPaths and what they call to fill it): the count
// leaves them out, so the profile does too ("" from readableName).
var uncachedAssertion = []string{"typeAssert", "interfaceSwitch", "getitab", "itabAdd", "(*itabTableType)", "buildTypeAssertCache", "buildInterfaceSwitchCache"}

// decoderPkg is the protobuf runtime's table-driven codec.
const decoderPkg = "google.golang.org/protobuf/internal/impl"

// readableName is the line a callgrind function name (a Go symbol) counts
// under, and its kind; "" for a function the count leaves out.
func readableName(symbol string) (name, kind string) {
	pkg, fn := splitSymbol(unrecursed(symbol))
	switch {
	case pkg == "runtime" && hasAnyPrefix(fn, uncachedAssertion):
		return "", ""
	case pkg == "runtime" && hasAnyPrefix(fn, allocation):
		return GroupAllocation, KindGroup
	case pkg == decoderPkg && isDecoderPath(fn):
		return GroupDecoder, KindGroup
	}
	short := pkg[strings.LastIndex(pkg, "/")+1:]
	name = fn
	if short != "" {
		name = short + "." + fn
	}
	if pkg == benchModulePrefix || strings.HasPrefix(pkg, benchModulePrefix+"/") {
		return name, KindGenerated
	}
	return name, KindFunction
}

// isDecoderPath says whether an impl function is the table-driven
// decoder's: unmarshal and consume functions, the map path excepted.
func isDecoderPath(fn string) bool {
	lower := strings.ToLower(fn)
	return (strings.Contains(lower, "unmarshal") || strings.Contains(lower, "consume")) && !strings.Contains(lower, "map")
}

// splitSymbol splits a Go symbol into its package path and the rest:
// "encoding/json.(*decodeState).object" → "encoding/json",
// "(*decodeState).object". The path ends at the first dot after its last
// slash (before any type arguments, which may hold slashes); a name that
// is no Go symbol (an address, a C function) has no package.
func splitSymbol(symbol string) (pkg, fn string) {
	head := symbol
	if i := strings.IndexByte(head, '['); i >= 0 {
		head = head[:i]
	}
	slash := strings.LastIndexByte(head, '/')
	dot := strings.IndexByte(head[slash+1:], '.')
	if dot < 0 {
		return "", symbol
	}
	cut := slash + 1 + dot
	return symbol[:cut], symbol[cut+1:]
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
