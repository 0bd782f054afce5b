package bufcheck

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// buf's own messages (buf 1.75, `buf breaking --error-format=json`) name
// the element each finding is about.
func TestLocateReadsBufsMessages(t *testing.T) {
	for _, c := range []struct {
		message string
		where   Where
		change  report.ElementChange
	}{
		{`Field "7" with name "profile_id" on message "Sample" changed type from "int32" to "bytes".`,
			Where{"message", "Sample", "field", "7", "profile_id"}, report.ElementChange{What: "type", From: "int32", To: "bytes"}},
		{`Field "7" on message "Sample" changed name from "comment_strindices" to "profile_id".`,
			Where{"message", "Sample", "field", "7", "profile_id"}, report.ElementChange{What: "name", From: "comment_strindices", To: "profile_id"}},
		{`Field "7" with name "profile_id" on message "Sample" changed option "json_name" from "commentStrindices" to "profileId".`,
			Where{"message", "Sample", "field", "7", "profile_id"}, report.ElementChange{What: "json_name", From: "commentStrindices", To: "profileId"}},
		{`Field "2" with name "ids" on message "Sample" changed cardinality from "repeated" to "optional with implicit presence".`,
			Where{"message", "Sample", "field", "2", "ids"}, report.ElementChange{What: "cardinality", From: "repeated", To: "optional with implicit presence"}},
		{`Previously present field "3" with name "gone" on message "Sample" was deleted without reserving the name "gone".`,
			Where{"message", "Sample", "field", "3", "gone"}, report.ElementChange{What: "deleted"}},
		{`Enum value "1" on enum "Color" changed name from "COLOR_RED" to "COLOR_CRIMSON".`,
			Where{"enum", "Color", "enum value", "1", "COLOR_CRIMSON"}, report.ElementChange{What: "name", From: "COLOR_RED", To: "COLOR_CRIMSON"}},
		{`Previously present message "Gone" was deleted from file.`, Where{ContainerKind: "message", Container: "Gone"}, report.ElementChange{What: "deleted"}},
	} {
		w, ch, ok := Locate(c.message)
		if !ok || w != c.where || ch != c.change {
			t.Errorf("%s:\n got %+v %+v %v\nwant %+v %+v", c.message, w, ch, ok, c.where, c.change)
		}
	}
	// A message naming no element is its own element, its text kept.
	msg := `Field name "fooBar" should be lower_snake_case, such as "foo_bar".`
	if _, ch, ok := Locate(msg); ok || ch.Text != msg {
		t.Errorf("lint message: %+v %v", ch, ok)
	}
}
