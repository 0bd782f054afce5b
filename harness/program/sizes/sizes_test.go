package sizes_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/program/sizes"
)

// An empty message's protobuf is 0 bytes, 0% of its JSON: the ratio must be
// written, not dropped as if JSON had not been measured.
func TestVsJSONZeroIsWritten(t *testing.T) {
	b, err := json.Marshal(sizes.Size{Message: "a.Empty", Format: "protobuf", Records: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"vs_json":0`) {
		t.Errorf("no vs_json in %s", b)
	}
}
