package valgrind

import "unsafe"

// uintptrOf passes a NUL-terminated label to Valgrind, which reads it during
// the request; the caller keeps the slice alive across it.
func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
