// Command protoc-gen-wiregate is a protoc plugin run by `wiregate prepare`
// next to protoc-gen-go. It writes the plain typed Go structs that the JSON,
// Avro, MessagePack and CBOR codecs work on, converters to and from the
// protoc-gen-go types, and the list of subjects the bench runner measures.
// Parameters: messages=a.B:c.D (colon separated), module=<go module>.
package main

import (
	"flag"

	gengo "google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"

	"github.com/wiregate/wiregate/harness/program/plaingen"
)

func main() {
	var flags flag.FlagSet
	messages := flags.String("messages", "", "colon-separated fully qualified message names")
	protogen.Options{ParamFunc: flags.Set}.Run(func(gen *protogen.Plugin) error {
		// The plain structs follow protoc-gen-go's types, so this plugin
		// accepts exactly the files protoc-gen-go accepts: proto3 optional
		// and every edition it supports.
		gen.SupportedFeatures = gengo.SupportedFeatures
		gen.SupportedEditionsMinimum = gengo.SupportedEditionsMinimum
		gen.SupportedEditionsMaximum = gengo.SupportedEditionsMaximum
		return plaingen.Generate(gen, *messages)
	})
}
