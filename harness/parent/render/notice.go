package render

// What publish mode says instead of, or before, a report it cannot vouch
// for: wiregate's words, with only names from the event escaped in.

import (
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
)

// Untrusted is why publish cannot vouch for a fork's report: Why in one
// line (the commit status's description, which the action words), and the
// producer files the fork changes, or (Files empty) the fact publish could
// not read whole.
type Untrusted struct {
	Why    string   `json:"why"`
	Files  []string `json:"files,omitempty"`
	Unread string   `json:"unread,omitempty"`
}

// shownFiles is how many of the changed producer files the notice names.
const shownFiles = 10

// UntrustedNotice heads the comment of a report publish cannot vouch for:
// why, and that the report below is unverified.
func UntrustedNotice(u Untrusted) md.Md {
	if len(u.Files) == 0 {
		return md.F(`## ⛔ wiregate: {}

This pull request comes from a fork, and {}: publish cannot tell whether it changes the workflow, actions, tools or plugins that wrote the report below, so the report may say anything. The commit status stays failing: a maintainer reviews the change and re-runs this pull request's checks, or the change is split.

What the report says, unverified:`, u.Why, u.Unread)
	}
	shown := make([]md.Md, 0, shownFiles)
	for _, f := range u.Files[:min(shownFiles, len(u.Files))] {
		shown = append(shown, md.Code(f))
	}
	more := md.Empty
	if len(u.Files) > len(shown) {
		more = md.F(" and {} more", len(u.Files)-len(shown))
	}
	return md.F(`## ⛔ wiregate: {}

This pull request comes from a fork and changes {}{}: the run that wrote the report below ran that change, so the report may say anything. The commit status stays failing while this pull request changes them: a maintainer reviews the change, lands it on the base branch on its own, and re-runs this pull request's checks.

What the report says, unverified:`, u.Why, md.Join(shown, md.F(", ")), more)
}

// Refusal is the comment for a report publish refused: wiregate's words
// only, and why.
func Refusal(runID int64, runURL, reason string) md.Md {
	return md.F(`## ⛔ wiregate refused the report of {}

{}

The artifact is written by the pull request's own run, so publish mode checks it before posting anything from it. The gating run's own check and log have its result.`, md.Link(md.F("run {}", runID), runURL), reason)
}
