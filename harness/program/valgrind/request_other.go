//go:build !amd64 && !arm64

package valgrind

func clientRequest(args *[6]uintptr, def uintptr) uintptr { return def }
