//go:build tools

// This file pins libraries the harness and the generated bench programs use,
// so `go mod tidy` keeps them in go.mod before code imports them.
package harness

import (
	_ "github.com/aclements/go-moremath/stats"
	_ "github.com/fxamacker/cbor/v2"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/planetscale/vtprotobuf/protohelpers"
	_ "github.com/testcontainers/testcontainers-go"
	_ "github.com/testcontainers/testcontainers-go/modules/redpanda"
	_ "github.com/twmb/avro"
	_ "github.com/twmb/franz-go/pkg/kadm"
	_ "github.com/twmb/franz-go/pkg/kfake"
	_ "github.com/twmb/franz-go/pkg/kgo"
	_ "github.com/vmihailenco/msgpack/v5"
	_ "golang.org/x/perf/benchmath"
	_ "google.golang.org/protobuf/proto"
	_ "gopkg.in/yaml.v3"
)
