// Package harness is the root of wiregate's harness module; it holds the
// module's own source.
package harness

import "embed"

// Source is this module's own source, embedded in every binary that links
// package prepare: go.mod, go.sum and the packages. A bench program and
// the protoc plugins are built from it (prepare writes it out into its
// cache), so a wiregate installed with `go install` gates any repository
// without a wiregate checkout. A module nested below (the opt-in
// avro-hamba codec's) is not part of it: Go embeds no other module's files.
//
//go:embed go.mod go.sum *.go cmd internal parent program
var Source embed.FS
