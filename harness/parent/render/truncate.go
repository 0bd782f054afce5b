package render

import (
	"regexp"
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
)

var fenceLine = regexp.MustCompile("^[" + md.JSSpace + "]*```")

// Truncate cuts markdown to at most limit characters (UTF-16 code units)
// at a line boundary, closes any code fence or <details> the cut left
// open, and says where the full report is: the room's last resort (Fit).
func Truncate(markdown string, limit int, note md.Md) string {
	if md.UTF16Len(markdown) <= limit {
		return markdown
	}
	var kept []string
	length, fence, openDetails := 0, false, 0
	footer := "\n\n> ✂️ " + note.Source() + "\n"
	footerLen := md.UTF16Len(footer)
	for _, line := range strings.Split(markdown, "\n") {
		nextFence := fence
		if fenceLine.MatchString(line) {
			nextFence = !fence
		}
		// A <details> tag inside a code block is text, not a tag to close.
		nextDetails := openDetails
		if !fence && !nextFence {
			nextDetails += strings.Count(line, "<details>") - strings.Count(line, "</details>")
		}
		wouldBe := length + md.UTF16Len(line) + 1
		tail := nextDetails*11 + footerLen
		if nextFence {
			tail += 4
		}
		if wouldBe+tail > limit {
			break
		}
		kept = append(kept, line)
		length, fence, openDetails = wouldBe, nextFence, max(0, nextDetails)
	}
	closing := strings.Repeat("</details>\n", openDetails)
	if fence {
		closing = "```\n" + closing
	}
	return strings.Join(kept, "\n") + "\n" + closing + footer
}
