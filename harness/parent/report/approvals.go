package report

import (
	"github.com/wiregate/wiregate/harness/parent/config"
)

// What an approval command did (ApprovalNote.Status).
const (
	ApprovalCounted  = "counted"
	ApprovalRefused  = "refused"
	ApprovalUnknown  = "unknown"
	ApprovalExceeded = "exceeded"
	ApprovalAmount   = "amount"
)

// Element is one schema element with every schema violation on it (of one
// kind, against one side): a field renamed and retyped in one commit is
// one element with four of buf's rules.
type Element struct {
	// ID approves every violation of the element as they stand (a rule
	// hit later is not covered); a lone violation's element has its id.
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Against string `json:"against,omitempty"`
	File    string `json:"file"`
	// Container is the message or enum that holds the element, as buf
	// names it; empty when buf's message names none (the element is the
	// finding itself).
	Container     string `json:"container,omitempty"`
	ContainerKind string `json:"container_kind,omitempty"` // message | enum | service | file
	Member        string `json:"member,omitempty"`         // field | enum value | rpc; empty: the container itself
	Number        string `json:"number,omitempty"`         // the field's or enum value's number
	Name          string `json:"name,omitempty"`           // the member's name on head (the base's, deleted)
	// Changes are what changed, each once.
	Changes []ElementChange `json:"changes"`
	// Rules are the rules that fired, each once, in the order found.
	Rules []string `json:"rules"`
	// Violations are the ids of its violations.
	Violations  []string `json:"violations"`
	ApproveWith string   `json:"approve_with,omitempty"`
}

// ElementChange is one thing a schema finding says changed: "name" from a to b,
// "type", "json_name", "cardinality", another property buf names, or
// "deleted"; Text is the finding's own message when it names none.
type ElementChange struct {
	What string `json:"what"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	Text string `json:"text,omitempty"`
}

// FileApproval is the line approving a file's blocking schema findings.
type FileApproval struct {
	File string `json:"file"`
	Line string `json:"line"`
}

// Approval is a PR comment `/wiregate approve <id>…` that covers a
// violation.
type Approval struct {
	By     string `json:"by"`               // the comment's author
	At     string `json:"at"`               // the comment as it reads now: its last edit, RFC 3339
	URL    string `json:"url"`              // the comment
	Reason string `json:"reason,omitempty"` // what the approver wrote after the ids
	// UpToPct is the largest growth (percent) a measured regression's
	// approval covers ("up to 7.4%"); nil for a schema finding, which an
	// approval covers exactly.
	UpToPct *float64 `json:"up_to_pct,omitempty"`
}

// Comment is one of the pull request's comments that speaks to wiregate
// (a line starting /wiregate), as it reads now.
type Comment struct {
	ID        int64  `json:"id"`
	URL       string `json:"url"`
	Author    string `json:"author"`
	Body      string `json:"body"`
	CreatedAt string `json:"created_at"` // RFC 3339
	UpdatedAt string `json:"updated_at"`
}

// Author is what GitHub says of a comment's author: their permission on
// the repository (admin, maintain, write, triage, read, none) and the
// approver teams of wiregate.yaml they belong to.
type Author struct {
	Login      string   `json:"login"`
	Permission string   `json:"permission"`
	Teams      []string `json:"teams,omitempty"`
	// Bot is GitHub's word that the account is a bot (user type Bot): the
	// sticky comment's author, an app. A bot never approves.
	Bot bool `json:"bot,omitempty"`
}

// ApprovalNote says what one /wiregate command did to one id, or what one
// allow label did: counted, or why not.
type ApprovalNote struct {
	By     string `json:"by"`
	URL    string `json:"url"`    // the comment; empty for a label
	Action string `json:"action"` // approve | revoke | label
	ID     string `json:"id"`     // the violation or element id; a label's name
	// Status is counted, refused (the author may not approve), unknown (no
	// violation has the id in this run), exceeded (the regression grew past
	// the approved amount) or amount (a measured regression's approval
	// needs "up to N%").
	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
}

// Rules are the verdict's inputs besides the measurements.
type Rules struct {
	Config  config.Config `json:"config"`           // thresholds and alpha, overlaid by the base's wiregate.yaml
	Labels  []string      `json:"labels,omitempty"` // the PR's labels, as given
	LintAll bool          `json:"lint_all,omitempty"`
	// CoverageRequired fails the gate on a changed message's cut figure
	// (input coverage: required).
	CoverageRequired bool `json:"coverage_required,omitempty"`
	// Pipeline is whether the pipeline was asked for: a changed message
	// without its rows is then not fully measured.
	Pipeline bool `json:"pipeline"`
	// Approvals are the pull request's comments the verdict reads
	// approvals from (the action gathers them).
	Approvals
}

// Approvals are what the action gathers from GitHub for the verdict: the
// pull request's comments as they read now (the rules keep those that
// hold a command), who applied its labels, what GitHub says of those
// authors, and the pull request's author. The verdict decides what they
// approve and allow (package verdict).
type Approvals struct {
	Comments []Comment `json:"comments,omitempty"`
	Labeled  []Labeled `json:"labeled,omitempty"`
	Authors  []Author  `json:"authors,omitempty"`
	PRAuthor string    `json:"pr_author,omitempty"`
}

// Labeled is who applied one of the pull request's labels: the actor of
// its last labeled event on the pull request's timeline. An allow label
// counts only when they may approve.
type Labeled struct {
	Label string `json:"label"`
	By    string `json:"by"`
}
