package verdict

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Approving is a pull request comment, one command a plain line
// (commands.go):
//
//	/wiregate approve wg-3f9a2c61d04be7a0 [wg-…] [up to 7.4%] [reason…]
//	/wiregate revoke wg-3f9a2c61d04be7a0 [wg-…]
//
// It counts when its author is a person (never a bot) GitHub says may: write, maintain or admin
// permission on the repository, or wiregate.yaml (read from the base)
// names them or a team of theirs under approvers. The pull request's
// author approving their own change counts only with self-approve: true.
// Comments are read as they are now, oldest first: a later command on the
// same id wins, a deleted comment is gone, an edited one reads as edited.
// An approval covers its violation while the violation has the same id: a
// schema finding exactly, a measured regression up to the approved amount
// plus the metric's noise floor (approved at +7.3%, +7.5% within a 0.5%
// floor is still covered; +9% needs a new approval). The amount is the
// regression's size: a throughput drop of 12.6% is approved "up to 12.6%".
// A schema element's id (elements.go) approves each of the element's
// violations, each recorded on its own. An id matches only whole
// (report.IDDigits): a shorter one, such as the six digits earlier
// versions showed, is read as an id and matches nothing.

var (
	idWord = regexp.MustCompile(`^wg-[0-9a-f]+$`)
	upTo   = regexp.MustCompile(`(?i)^up\s+to\s+\+?([0-9]+(?:\.[0-9]+)?)\s*%`)
)

// MayApprove are the repository permissions that may approve.
var MayApprove = []string{"admin", "maintain", "write"}

// pending is an approval a command gave, before it meets a violation.
type pending struct {
	approval report.Approval
	note     int // its command's note in the report
}

// approvals reads the rules' comments into the approvals they give, by
// violation id, and one note per command and id (report.Approvals).
func approvals(rules *report.Rules, cfg config.Config) (map[string]pending, []report.ApprovalNote) {
	given := map[string]pending{}
	var notes []report.ApprovalNote
	if rules == nil {
		return given, nil
	}
	comments := slices.Clone(rules.Comments)
	slices.SortStableFunc(comments, func(a, b report.Comment) int { return cmp.Compare(a.CreatedAt, b.CreatedAt) })
	for _, c := range comments {
		for _, m := range commandLines(c.Body) {
			action := m[0]
			ids, amount, reason := parseCommand(m[1])
			why := refusal(rules, cfg, c.Author)
			for _, id := range ids {
				note := report.ApprovalNote{By: c.Author, URL: c.URL, Action: action, ID: id, Status: report.ApprovalCounted}
				if why != "" {
					note.Status, note.Why = report.ApprovalRefused, why
				}
				notes = append(notes, note)
				switch {
				case why != "":
				case action == "revoke":
					delete(given, id)
				default:
					given[id] = pending{approval: report.Approval{By: c.Author, At: c.UpdatedAt, URL: c.URL, Reason: reason, UpToPct: amount},
						note: len(notes) - 1}
				}
			}
		}
	}
	return given, notes
}

// parseCommand reads what follows /wiregate approve: its ids, an amount,
// and the rest as the reason.
func parseCommand(rest string) (ids []string, amount *float64, reason string) {
	words := strings.Fields(rest)
	i := 0
	for ; i < len(words) && idWord.MatchString(strings.ToLower(strings.Trim(words[i], ","))); i++ {
		ids = append(ids, strings.ToLower(strings.Trim(words[i], ",")))
	}
	tail := strings.Join(words[i:], " ")
	if m := upTo.FindStringSubmatch(tail); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			amount = &v
		}
		tail = strings.TrimSpace(tail[len(m[0]):])
	}
	return ids, amount, strings.TrimSpace(strings.TrimLeft(strings.ReplaceAll(tail, codeMark, "`"), ":—-"))
}

// refusal says why author may not approve, or "" when they may.
func refusal(rules *report.Rules, cfg config.Config, author string) string {
	i := slices.IndexFunc(rules.Authors, func(a report.Author) bool { return strings.EqualFold(a.Login, author) })
	// A bot's comment is text some program wrote: the sticky comment shows
	// approve lines, and an app with write permission may echo anything.
	if strings.HasSuffix(strings.ToLower(author), "[bot]") || i >= 0 && rules.Authors[i].Bot {
		return fmt.Sprintf("@%s is a bot: a bot's comment never approves, whatever permission it has", author)
	}
	if strings.EqualFold(author, rules.PRAuthor) && !cfg.SelfApprove {
		return "the pull request's author cannot approve its own change (self-approve is false in wiregate.yaml)"
	}
	if i >= 0 && slices.Contains(MayApprove, rules.Authors[i].Permission) {
		return ""
	}
	for _, a := range cfg.Approvers {
		if strings.EqualFold(a, author) || i >= 0 && slices.ContainsFunc(rules.Authors[i].Teams, func(t string) bool { return strings.EqualFold(t, a) }) {
			return ""
		}
	}
	permission := "no"
	if i >= 0 && rules.Authors[i].Permission != "" {
		permission = rules.Authors[i].Permission
	}
	return fmt.Sprintf("@%s has %s permission on the repository and is not among wiregate.yaml's approvers", author, permission)
}

// approve covers x with its approval, when one was given and covers it;
// it notes on the approval's command what it did.
func (v *verdict) approve(x *report.Violation) {
	if x.Kind != report.KindError {
		x.ApproveWith = "/wiregate approve " + x.ID
		if report.Measured(x.Kind) {
			x.ApproveWith += fmt.Sprintf(" up to %.1f%%", roundUp(x.DeltaPct))
		}
	}
	id := x.ID
	p, ok := v.approved[id]
	if e, byElement := v.byElement[x.ID]; !ok && byElement {
		id = e
		p, ok = v.approved[id]
	}
	if !ok || x.Kind == report.KindError {
		return
	}
	v.met[id] = true
	note := &v.r.Approvals[p.note]
	if report.Measured(x.Kind) {
		if p.approval.UpToPct == nil {
			note.Status, note.Why = report.ApprovalAmount, fmt.Sprintf("%s is a measured regression: approve it up to an amount, as `/wiregate approve %s up to %.1f%%`", x.ID, x.ID, roundUp(x.DeltaPct))
			return
		}
		floor := 0.0
		if x.NoiseFloor != nil {
			floor = *x.NoiseFloor
		}
		if x.DeltaPct != nil && math.Abs(*x.DeltaPct) > *p.approval.UpToPct+floor+1e-9 {
			note.Status, note.Why = report.ApprovalExceeded, fmt.Sprintf("%s grew to %+.1f%%, past the approved %.1f%% (and its %.2f%% noise floor): approve it again", x.ID, *x.DeltaPct, *p.approval.UpToPct, floor)
			return
		}
	}
	a := p.approval
	x.Approved = &a
}

// unmet notes the approvals of ids no violation of this run has.
func (v *verdict) unmet() {
	for id, p := range v.approved {
		if note := &v.r.Approvals[p.note]; !v.met[id] && note.Status == report.ApprovalCounted {
			note.Status, note.Why = report.ApprovalUnknown, fmt.Sprintf("no violation of this run is %s", id)
			if len(id) != len("wg-")+report.IDDigits {
				note.Why = fmt.Sprintf("%s is not a whole id: ids have %d hex digits and match only whole (a %d-digit one from an earlier wiregate matches nothing); approve with the id the comment shows now", id, report.IDDigits, len(id)-len("wg-"))
			}
		}
	}
}

// roundUp is a delta's size rounded up to one decimal: the amount a line
// to post approves (a drop's too, as a positive amount).
func roundUp(d *float64) float64 {
	if d == nil {
		return 0
	}
	return math.Ceil(math.Abs(*d)*10-1e-6) / 10
}
