module github.com/wiregate/wiregate/harness/program/codec/avrohamba

go 1.26.0

require (
	github.com/hamba/avro/v2 v2.31.0
	github.com/wiregate/wiregate/harness v0.0.0
)

require (
	github.com/fxamacker/cbor/v2 v2.9.6 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/planetscale/vtprotobuf v0.6.0 // indirect
	github.com/twmb/avro v1.9.0 // indirect
	github.com/vmihailenco/msgpack/v5 v5.4.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/wiregate/wiregate/harness => ../../..
