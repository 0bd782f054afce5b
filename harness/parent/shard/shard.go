// Package shard splits a change over a GitHub Actions matrix: how many
// shards measure all of it within the time budget each (Count), and which
// messages each shard measures (Deal). Both are pure functions of prices
// every shard computes alike from the schemas (package gate's static
// prices), so every shard of a matrix takes its part without talking to
// the others.
package shard

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/parent/inputs"
)

// Priced is one message and what measuring it costs.
type Priced struct {
	Name  string
	Price time.Duration
}

// Count is how many shards of capacity each hold total, at most most;
// needed is how many it would take uncapped. At least one.
func Count(total, capacity time.Duration, most int) (n, needed int) {
	if capacity <= 0 {
		return max(most, 1), max(most, 1)
	}
	needed = max(1, int((total+capacity-1)/capacity))
	return min(needed, max(most, 1)), needed
}

// Deal deals ms to n shards, balancing their prices: the dearest message
// first, each to the shard with the least so far (the lowest index on a
// tie; equal prices in name order). Every message lands in exactly one
// shard; a shard's messages keep the order they have in ms. The same
// input gives the same split on every machine.
func Deal(ms []Priced, n int) [][]string {
	n = max(n, 1)
	order := slices.Clone(ms)
	slices.SortStableFunc(order, func(a, b Priced) int {
		return cmp.Or(cmp.Compare(b.Price, a.Price), strings.Compare(a.Name, b.Name))
	})
	load := make([]time.Duration, n)
	of := map[string]int{}
	for _, m := range order {
		i := 0
		for j := range load {
			if load[j] < load[i] {
				i = j
			}
		}
		load[i] += m.Price
		of[m.Name] = i
	}
	parts := make([][]string, n)
	for _, m := range ms {
		parts[of[m.Name]] = append(parts[of[m.Name]], m.Name)
	}
	for i := range parts {
		if parts[i] == nil {
			parts[i] = []string{}
		}
	}
	return parts
}

// Hash identifies a split: parts of different splits cannot be merged.
func Hash(parts [][]string) string {
	h := sha256.New()
	for i, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", i, strings.Join(p, ","))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Matrix is the strategy.matrix a plan job writes as its output, for
// `matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}`: one job per shard,
// each with its `shard` input ("2/8").
type Matrix struct {
	Shard []string `json:"shard"`
}

// MatrixOf is the matrix of n shards, each named as the shard input reads
// it (inputs.Shard.String: the notation's one writer, beside its parser).
func MatrixOf(n int) Matrix {
	m := Matrix{Shard: make([]string, n)}
	for i := range n {
		m.Shard[i] = inputs.Shard{Index: i + 1, Count: n}.String()
	}
	return m
}

// PartName is the artifact a shard's part (its report.json) uploads as,
// for the merge job: wiregate-part-2-of-8. Decided here only: plan.json
// and the part's report carry it (Part.Artifact, report.Shard.Artifact),
// and the action passes it on.
func PartName(s inputs.Shard) string { return fmt.Sprintf("wiregate-part-%d-of-%d", s.Index, s.Count) }
