package shard

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func priced(n int) []Priced {
	var out []Priced
	for i := range n {
		// Prices of three sizes, as a module of small, medium and big messages.
		out = append(out, Priced{Name: fmt.Sprintf("m%03d.V1", i), Price: time.Duration(1+(i*7)%3*5) * time.Second})
	}
	return out
}

// Every message lands in exactly one shard, each shard keeps the input's
// order, the loads differ by at most one message's price, and the same
// input splits the same way.
func TestSplitCoversEachMessageOnceBalancedAndDeterministic(t *testing.T) {
	ms := priced(400)
	parts := Deal(ms, 8)
	seen := map[string]int{}
	price := map[string]time.Duration{}
	for _, m := range ms {
		price[m.Name] = m.Price
	}
	var loads []time.Duration
	for _, p := range parts {
		var load time.Duration
		for _, m := range p {
			seen[m]++
			load += price[m]
		}
		if !slices.IsSorted(p) {
			t.Fatalf("a shard's messages are out of order: %v", p[:5])
		}
		loads = append(loads, load)
	}
	if len(seen) != 400 {
		t.Fatalf("%d of 400 messages split", len(seen))
	}
	for m, n := range seen {
		if n != 1 {
			t.Fatalf("%s is in %d shards", m, n)
		}
	}
	if spread := slices.Max(loads) - slices.Min(loads); spread > 11*time.Second {
		t.Fatalf("loads %v spread by %s, more than the dearest message", loads, spread)
	}
	if again := Deal(slices.Clone(ms), 8); Hash(again) != Hash(parts) {
		t.Fatal("the same input split differently")
	}
	if Hash(Deal(ms, 7)) == Hash(parts) {
		t.Fatal("a split into 7 hashes like one into 8")
	}
}

// More shards than messages leaves some empty, never nil; one shard is
// the whole list.
func TestSplitSmallCases(t *testing.T) {
	parts := Deal(priced(3), 5)
	if len(parts) != 5 || parts[4] == nil || len(parts[0])+len(parts[1])+len(parts[2])+len(parts[3])+len(parts[4]) != 3 {
		t.Fatalf("%v", parts)
	}
	if one := Deal(priced(10), 1); len(one) != 1 || len(one[0]) != 10 {
		t.Fatalf("%v", one)
	}
}

func TestCountCapsAtMostAndSaysWhatWasNeeded(t *testing.T) {
	for _, c := range []struct {
		total, capacity time.Duration
		most, n, needed int
	}{
		{100 * time.Second, 300 * time.Second, 8, 1, 1},
		{301 * time.Second, 300 * time.Second, 8, 2, 2},
		{3600 * time.Second, 300 * time.Second, 8, 8, 12},
		{0, 300 * time.Second, 8, 1, 1},
	} {
		if n, needed := Count(c.total, c.capacity, c.most); n != c.n || needed != c.needed {
			t.Errorf("Count(%s, %s, %d) = %d, %d; want %d, %d", c.total, c.capacity, c.most, n, needed, c.n, c.needed)
		}
	}
	if m := MatrixOf(3); !slices.Equal(m.Shard, []string{"1/3", "2/3", "3/3"}) {
		t.Fatalf("%v", m)
	}
}
