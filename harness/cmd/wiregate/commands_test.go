package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// `wiregate commands` is the one reading of command words approve mode
// asks before anything else: an upper-case revoke is a command, a comment
// that only talks about one is not, and an author's right to give one is
// the verdict's (the base's wiregate.yaml naming approvers and
// self-approve).
func TestCommandsSaysWhatEachCommentHolds(t *testing.T) {
	dir := t.TempDir()
	facts := report.Approvals{
		Comments: []report.Comment{
			{ID: 1, Author: "writer", Body: "/WireGate REVOKE wg-0123456789abcdef"},
			{ID: 2, Author: "writer", Body: "How does one approve? `/wiregate approve wg-0123456789abcdef`"},
			{ID: 3, Author: "reader", Body: "looks fine\n/wiregate approve wg-0123456789abcdef"},
			{ID: 4, Author: "author", Body: "/wiregate approve wg-0123456789abcdef mine"},
		},
		Authors:  []report.Author{{Login: "writer", Permission: "write"}, {Login: "reader", Permission: "read"}, {Login: "author", Permission: "write"}},
		PRAuthor: "author",
	}
	b, _ := json.Marshal(facts)
	in, base := filepath.Join(dir, "approvals.json"), filepath.Join(dir, "base.yaml")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	held := func(yaml string) map[int64]verdict.Held {
		if err := os.WriteFile(base, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "held.json")
		if err := cmdCommands(context.Background(), []string{"--approvals", in, "--base-config", base, "--out", out}); err != nil {
			t.Fatal(err)
		}
		var got struct{ Comments []verdict.Held }
		b, err := os.ReadFile(out)
		if err != nil || json.Unmarshal(b, &got) != nil {
			t.Fatalf("%v %s", err, b)
		}
		m := map[int64]verdict.Held{}
		for _, h := range got.Comments {
			m[h.ID] = h
		}
		return m
	}
	h := held("")
	if h[1].Commands != 1 || h[1].Refused != "" || h[2].Commands != 0 || h[3].Commands != 1 || h[3].Refused == "" || h[4].Refused == "" {
		t.Fatalf("%+v", h)
	}
	if h := held("approvers: [reader]\nself-approve: true\n"); h[3].Refused != "" || h[4].Refused != "" {
		t.Fatalf("the base's rules make both approvers: %+v", h)
	}
	if err := cmdCommands(context.Background(), []string{"--out", filepath.Join(dir, "x.json")}); exitcode.Code(err) != exitcode.Unusable {
		t.Fatalf("no --approvals: %v", err)
	}
}
