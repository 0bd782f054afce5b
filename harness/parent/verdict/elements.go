package verdict

import (
	"cmp"
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/bufcheck"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// A schema change trips several of buf's rules at once: a field renamed
// and retyped is FIELD_SAME_NAME, FIELD_SAME_JSON_NAME, FIELD_SAME_TYPE and
// FIELD_WIRE_JSON_COMPATIBLE_TYPE. A reviewer reads one changed element,
// so the verdict groups schema violations by the element buf's message
// names (file → message or enum → field or enum value), each element with
// one id that approves its violations as they stand. Each violation keeps
// its own id and its own approval.

// located is a schema violation and the element it is about.
type located struct {
	index  int // in r.Violations
	where  bufcheck.Where
	found  bool // buf's message names an element
	change report.ElementChange
	rule   string
}

// locate notes which element the violation at index is about.
func (v *verdict) locate(index int, f report.Finding) {
	w, ch, ok := bufcheck.Locate(f.Message)
	v.located = append(v.located, located{index: index, where: w, found: ok, change: ch, rule: f.Rule})
}

// maxSubsetElement is the most violations an element may have for an
// approval of fewer of them (before a rule hit was added) to be found: an
// element's id is of the set, so finding an older id tries its subsets.
const maxSubsetElement = 12

// group sets r.Elements from the located violations and, for each element
// of several violations, which approved element id covers which of them:
// the id of the whole set, or of the largest subset an approval names (the
// element as it stood when approved; a rule hit since is not covered).
func (v *verdict) group() {
	byKey := map[string]*report.Element{}
	var keys []string
	for _, l := range v.located {
		x := v.r.Violations[l.index]
		key := strings.Join([]string{x.Kind, x.Against, x.File, l.where.ContainerKind, l.where.Container, l.where.Member, l.where.Number}, "\x00")
		if !l.found {
			key = x.ID // an element of its own
		}
		e := byKey[key]
		if e == nil {
			e = &report.Element{Kind: x.Kind, Against: x.Against, File: x.File, Container: l.where.Container,
				ContainerKind: l.where.ContainerKind, Member: l.where.Member, Number: l.where.Number, Changes: []report.ElementChange{}, Rules: []string{}}
			byKey[key] = e
			keys = append(keys, key)
		}
		if e.Name == "" || l.change.What == "name" {
			e.Name = cmp.Or(l.where.Name, e.Name)
		}
		if !slices.Contains(e.Changes, l.change) {
			e.Changes = append(e.Changes, l.change)
		}
		if l.rule != "" && !slices.Contains(e.Rules, l.rule) {
			e.Rules = append(e.Rules, l.rule)
		}
		if !slices.Contains(e.Violations, x.ID) {
			e.Violations = append(e.Violations, x.ID)
		}
	}
	for _, k := range keys {
		e := byKey[k]
		e.ID = ElementID(e.Violations)
		e.ApproveWith = "/wiregate approve " + e.ID
		v.coverSubsets(e.Violations)
		v.r.Elements = append(v.r.Elements, *e)
	}
	slices.SortStableFunc(v.r.Elements, func(a, b report.Element) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Against, b.Against), cmp.Compare(a.File, b.File),
			cmp.Compare(a.Container, b.Container), cmp.Compare(number(a.Number), number(b.Number)), cmp.Compare(a.Number, b.Number))
	})
}

// coverSubsets maps each of ids to the approved element id of the largest
// subset of ids (two or more) an approval names.
func (v *verdict) coverSubsets(ids []string) {
	if len(ids) < 2 || len(v.approved) == 0 {
		return
	}
	if len(ids) > maxSubsetElement {
		if e := ElementID(ids); v.given(e) {
			for _, id := range ids {
				v.byElement[id] = e
			}
		}
		return
	}
	best := map[string]int{} // id → size of the subset covering it
	for mask := 1; mask < 1<<len(ids); mask++ {
		var sub []string
		for i, id := range ids {
			if mask&(1<<i) != 0 {
				sub = append(sub, id)
			}
		}
		if len(sub) < 2 {
			continue
		}
		e := ElementID(sub)
		if !v.given(e) {
			continue
		}
		for _, id := range sub {
			if len(sub) > best[id] {
				best[id], v.byElement[id] = len(sub), e
			}
		}
	}
}

// given is whether a comment approves id.
func (v *verdict) given(id string) bool {
	_, ok := v.approved[id]
	return ok
}

// ElementID is the id of an element of the violations ids: a lone
// violation's own id, else a hash of the set (in any order).
func ElementID(ids []string) string {
	if len(ids) == 1 {
		return ids[0]
	}
	s := slices.Sorted(slices.Values(ids))
	h := sha256.Sum256([]byte("element\x00" + strings.Join(s, "\x00")))
	return report.IDOf(h[:])
}

func number(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// approveAll sets the lines that approve every blocking violation: the
// schema findings by their elements' ids (and any other exact violation by
// its own) on one line, then each measured regression's own line, which
// carries its amount; and, when the schema findings span several files, a
// line per file.
func (v *verdict) approveAll() {
	grouped := map[string]bool{}
	for _, e := range v.r.Elements {
		for _, id := range e.Violations {
			grouped[id] = true
		}
	}
	blocking := map[string]bool{}
	var exact []string
	var lines []string
	for _, x := range v.r.Violations {
		if x.Allowed || x.Approved != nil || x.ApproveWith == "" {
			continue
		}
		blocking[x.ID] = true
		switch {
		case report.Measured(x.Kind):
			lines = append(lines, x.ApproveWith)
		case !grouped[x.ID]:
			exact = append(exact, x.ID)
		}
	}
	files := map[string][]string{}
	var order []string
	for _, e := range v.r.Elements {
		if !slices.ContainsFunc(e.Violations, func(id string) bool { return blocking[id] }) {
			continue
		}
		exact = append(exact, e.ID)
		if _, ok := files[e.File]; !ok {
			order = append(order, e.File)
		}
		files[e.File] = append(files[e.File], e.ID)
	}
	if len(exact) > 0 {
		lines = append([]string{"/wiregate approve " + strings.Join(exact, " ")}, lines...)
	}
	if len(blocking) >= 2 {
		v.r.ApproveAll = lines
	}
	if len(order) >= 2 {
		for _, f := range order {
			v.r.ApproveFiles = append(v.r.ApproveFiles, report.FileApproval{File: f, Line: "/wiregate approve " + strings.Join(files[f], " ")})
		}
	}
}
