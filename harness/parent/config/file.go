package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/parent/schemafiles"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// FileName is the optional config file at the root of the gated repo.
const FileName = "wiregate.yaml"

// Config is everything the verdict needs besides the measurements.
type Config struct {
	Alpha      float64    `json:"alpha"`
	Thresholds Thresholds `json:"thresholds"`
	Overrides  []Override `json:"overrides,omitempty"`
	Ignore     []Ignore   `json:"ignore,omitempty"`
	// Approvers may approve a violation (a PR comment `/wiregate approve
	// wg-…`) besides everyone with write, maintain or admin permission on
	// the repository: GitHub users ("octocat") and teams ("org/team").
	Approvers []string `json:"approvers,omitempty"`
	// SelfApprove lets a pull request's author approve its own
	// violations; by default they cannot.
	SelfApprove bool `json:"self_approve,omitempty"`
	// Source is the wiregate.yaml that was read, empty when none.
	Source string `json:"source,omitempty"`
}

// Override replaces thresholds for the messages and formats it matches.
// Message and Format are globs (path.Match); an empty one matches all.
// A nil threshold leaves the value from the thresholds (or an earlier
// override) in place.
type Override struct {
	Message string   `json:"message,omitempty"`
	Format  string   `json:"format,omitempty"`
	SizePct *float64 `json:"size_pct,omitempty"`
	// Added overrides the added-content thresholds it sets (Off: turns a
	// kind off).
	Added Added `json:"added,omitzero"`
	// CompressedSizePct overrides compressed-size-threshold.
	CompressedSizePct *float64 `json:"compressed_size_pct,omitempty"`
	TimePct           *float64 `json:"time_pct,omitempty"`
	ThroughputPct     *float64 `json:"throughput_pct,omitempty"`
	CPUPct            *float64 `json:"cpu_pct,omitempty"`
}

// Ignore turns off the gate for subjects matching a glob, for a reason
// someone wrote down. The reason is shown in the report.
type Ignore struct {
	Subject string `json:"subject"`
	Reason  string `json:"reason"`
}

// ThresholdsFor returns the thresholds for one message in one format:
// the repo's thresholds, then every matching override in file order (a
// later one wins).
func (c Config) ThresholdsFor(message, format string) Thresholds {
	t := c.Thresholds
	for _, o := range c.Overrides {
		if !globMatch(o.Message, message) || !globMatch(o.Format, format) {
			continue
		}
		set(&t.SizePct, o.SizePct)
		set(&t.CompressedSizePct, o.CompressedSizePct)
		set(&t.TimePct, o.TimePct)
		set(&t.ThroughputPct, o.ThroughputPct)
		set(&t.CPUPct, o.CPUPct)
		t.Added = t.Added.over(o.Added)
	}
	return t
}

// Ignored reports whether subject is ignored and why. A pattern matches the
// subject itself or anything under it: "orders.v1.Order/json" ignores every
// JSON metric of that message. `**` matches any number of segments.
func (c Config) Ignored(subject string) (reason string, ok bool) {
	for _, ig := range c.Ignore {
		if schemafiles.Match(ig.Subject, subject) || schemafiles.Match(ig.Subject+"/**", subject) {
			return ig.Reason, true
		}
	}
	return "", false
}

func globMatch(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	ok, _ := path.Match(pattern, s)
	return ok
}

func set(dst *float64, v *float64) {
	if v != nil {
		*dst = *v
	}
}

// Load reads wiregate.yaml from the repo root over base (the gate's
// inputs). A missing file leaves base as it is.
func Load(root string, base Config) (Config, error) {
	p := filepath.Join(root, FileName)
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return base, nil
	}
	if err != nil {
		return base, exitcode.BadInput("%s: cannot read it: %v", p, err)
	}
	c, err := Parse(data, FileName, base)
	if err == nil {
		c.Source = p
	}
	return c, err
}

// file is wiregate.yaml as written. Percentages and alpha stay scalars so
// that errors can name the key and line.
type file struct {
	Alpha *scalar `yaml:"alpha"`
	// AddedContent is every added-content kind's threshold at once.
	AddedContent *scalar        `yaml:"added-content"`
	Thresholds   fileThresholds `yaml:"thresholds"`
	Overrides    []fileOverride `yaml:"overrides"`
	Ignore       []fileIgnore   `yaml:"ignore"`
	Approvers    []string       `yaml:"approvers"`
	SelfApprove  *bool          `yaml:"self-approve"`
}

type fileThresholds struct {
	Size       *scalar `yaml:"size"`
	Compressed *scalar `yaml:"compressed-size"`
	Time       *scalar `yaml:"time"`
	Throughput *scalar `yaml:"throughput"`
	CPU        *scalar `yaml:"cpu"`
	// The added-content thresholds: every kind at once, or one kind.
	AddedContent    *scalar `yaml:"added-content"`
	AddedSize       *scalar `yaml:"added-size"`
	AddedCompressed *scalar `yaml:"added-compressed-size"`
	AddedCPU        *scalar `yaml:"added-cpu"`
}

type fileOverride struct {
	Message        string `yaml:"message"`
	Format         string `yaml:"format"`
	fileThresholds `yaml:",inline"`
}

type fileIgnore struct {
	Subject string `yaml:"subject"`
	Reason  string `yaml:"reason"`
}

// validKeys names the keys each part of the file accepts, for errors.
var validKeys = map[string]string{
	"file":           "alpha, added-content, thresholds, overrides, ignore, approvers, self-approve",
	"fileThresholds": "size, compressed-size, time, throughput, cpu, added-content, added-size, added-compressed-size, added-cpu",
	"fileOverride":   "message, format, size, compressed-size, time, throughput, cpu, added-content, added-size, added-compressed-size, added-cpu",
	"fileIgnore":     "subject, reason",
}

var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found in type config\.(\w+)`)

// Parse reads a wiregate.yaml (name is used in errors) over base.
func Parse(data []byte, name string, base Config) (Config, error) {
	var f file
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && err != io.EOF {
		if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
			return base, exitcode.BadInput("%s line %s: unknown key %q; valid keys here: %s", name, m[1], m[2], validKeys[m[3]])
		}
		return base, exitcode.BadInput("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c := base
	c.Overrides = append([]Override(nil), base.Overrides...)
	c.Ignore = append([]Ignore(nil), base.Ignore...)
	if f.Alpha != nil {
		a, err := ParseAlpha(at(name, f.Alpha, "alpha"), f.Alpha.Value)
		if err != nil {
			return base, err
		}
		c.Alpha = a
	}
	if f.AddedContent != nil {
		v, err := ParseAddedPercent(at(name, f.AddedContent, "added-content"), f.AddedContent.Value)
		if err != nil {
			return base, err
		}
		c.Thresholds.Added = c.Thresholds.Added.over(AllAdded(&v))
	}
	top, err := f.Thresholds.parse(name, "thresholds.")
	if err != nil {
		return base, err
	}
	c.Thresholds.Added = c.Thresholds.Added.over(top.Added)
	set(&c.Thresholds.SizePct, top.SizePct)
	set(&c.Thresholds.CompressedSizePct, top.CompressedSizePct)
	set(&c.Thresholds.TimePct, top.TimePct)
	set(&c.Thresholds.ThroughputPct, top.ThroughputPct)
	set(&c.Thresholds.CPUPct, top.CPUPct)
	for i, o := range f.Overrides {
		key := fmt.Sprintf("overrides[%d]", i)
		for _, g := range []string{o.Message, o.Format} {
			if _, err := path.Match(g, ""); err != nil {
				return base, exitcode.BadInput("%s: %s: bad glob %q: %v", name, key, g, err)
			}
		}
		if o.Message == "" && o.Format == "" {
			return base, exitcode.BadInput("%s: %s has neither message nor format; say what it overrides, or set the value under thresholds", name, key)
		}
		t, err := o.parse(name, key+".")
		if err != nil {
			return base, err
		}
		if t.SizePct == nil && t.CompressedSizePct == nil && t.TimePct == nil && t.ThroughputPct == nil && t.CPUPct == nil && t.Added == (Added{}) {
			return base, exitcode.BadInput("%s: %s sets no threshold; give size, compressed-size, time, throughput, cpu or added-content", name, key)
		}
		t.Message, t.Format = o.Message, o.Format
		c.Overrides = append(c.Overrides, t)
	}
	for i, ig := range f.Ignore {
		key := fmt.Sprintf("ignore[%d]", i)
		if strings.TrimSpace(ig.Subject) == "" {
			return base, exitcode.BadInput("%s: %s.subject is missing; write e.g. subject: pingpong.v1.PingPong/json/encode", name, key)
		}
		if _, err := path.Match(ig.Subject, ""); err != nil {
			return base, exitcode.BadInput("%s: %s.subject: bad glob %q: %v", name, key, ig.Subject, err)
		}
		if strings.TrimSpace(ig.Reason) == "" {
			return base, exitcode.BadInput("%s: %s.reason is missing for %q; write why this metric may regress", name, key, ig.Subject)
		}
		c.Ignore = append(c.Ignore, Ignore{Subject: ig.Subject, Reason: strings.TrimSpace(ig.Reason)})
	}
	for i, a := range f.Approvers {
		if !approver.MatchString(a) {
			return base, exitcode.BadInput("%s: approvers[%d] is %q: want a GitHub user (octocat) or a team (org/team-slug)", name, i, a)
		}
		c.Approvers = append(c.Approvers, a)
	}
	if f.SelfApprove != nil {
		c.SelfApprove = *f.SelfApprove
	}
	return c, nil
}

// approver is a GitHub login or an org/team slug.
var approver = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:/[A-Za-z0-9_.-]{1,100})?$`)

func (t fileThresholds) parse(name, prefix string) (Override, error) {
	var o Override
	for _, p := range []struct {
		key  string
		node *scalar
		dst  **float64
	}{{"size", t.Size, &o.SizePct}, {"compressed-size", t.Compressed, &o.CompressedSizePct}, {"time", t.Time, &o.TimePct}, {"throughput", t.Throughput, &o.ThroughputPct}, {"cpu", t.CPU, &o.CPUPct}} {
		if p.node == nil {
			continue
		}
		v, err := ParsePercent(at(name, p.node, prefix+p.key), p.node.Value)
		if err != nil {
			return o, err
		}
		*p.dst = &v
	}
	// added-content first, so a kind of its own written beside it wins.
	for _, p := range []struct {
		key  string
		node *scalar
		dst  []**float64
	}{{"added-content", t.AddedContent, []**float64{&o.Added.SizePct, &o.Added.CompressedSizePct, &o.Added.CPUPct}},
		{"added-size", t.AddedSize, []**float64{&o.Added.SizePct}},
		{"added-compressed-size", t.AddedCompressed, []**float64{&o.Added.CompressedSizePct}},
		{"added-cpu", t.AddedCPU, []**float64{&o.Added.CPUPct}}} {
		if p.node == nil {
			continue
		}
		v, err := ParseAddedPercent(at(name, p.node, prefix+p.key), p.node.Value)
		if err != nil {
			return o, err
		}
		for _, d := range p.dst {
			*d = &v
		}
	}
	return o, nil
}

// scalar is a YAML value kept as written, with its line for errors.
type scalar struct {
	Value string
	Line  int
}

func (s *scalar) UnmarshalYAML(n *yaml.Node) error {
	s.Value, s.Line = n.Value, n.Line
	return nil
}

// at names a key in the file for an error: "wiregate.yaml line 3: thresholds.size".
func at(name string, n *scalar, key string) string {
	return fmt.Sprintf("%s line %d: %s", name, n.Line, key)
}
