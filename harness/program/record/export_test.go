package record

// MarshalNumbered is marshalNumbered, for the tests: records' protobuf
// bytes as generated code writes them, comparable across descriptors.
var MarshalNumbered = marshalNumbered
