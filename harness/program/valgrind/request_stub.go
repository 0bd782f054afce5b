//go:build amd64 || arm64

package valgrind

// clientRequest executes the client-request sequence with args (request
// number and up to five arguments) and returns Valgrind's answer, or def
// when not under Valgrind.
//
//go:noescape
func clientRequest(args *[6]uintptr, def uintptr) uintptr
