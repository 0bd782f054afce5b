package cases

import (
	"errors"
	"testing"

	"github.com/wiregate/wiregate/harness/program/subject"
)

// Fixed hands consecutive cases of one message together, in order, and
// stops at the first error.
func TestFixedGroupsByMessage(t *testing.T) {
	a, b := &subject.Subject{}, &subject.Subject{}
	cs := []*Case{{Subject: a}, {Subject: a}, {Subject: b}, {Subject: a}}
	var sizes []int
	err := Fixed(cs)(func(m []*Case) error { sizes = append(sizes, len(m)); return nil })
	if err != nil || len(sizes) != 3 || sizes[0] != 2 || sizes[1] != 1 || sizes[2] != 1 {
		t.Fatalf("groups %v (%v)", sizes, err)
	}
	stop := errors.New("stop")
	calls := 0
	if err := Fixed(cs)(func([]*Case) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("%d calls, %v", calls, err)
	}
}
