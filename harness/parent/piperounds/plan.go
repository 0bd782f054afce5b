package piperounds

import (
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// MaxRounds is the most decoded rounds a run may ask for.
const MaxRounds = 100

// CheckRounds is the one check of a rounds input.
func CheckRounds(n int) error {
	if n < 1 || n > MaxRounds {
		return exitcode.BadInput("--rounds %d: use 1 to %d", n, MaxRounds)
	}
	return nil
}

// Rounds is the number of decoded drains per side and backlog. Each round
// drains every backlog of every side, so rounds are the pipeline's main
// cost; but the verdict corrects for the rows it tests (Holm), so the
// rounds must let a clean shift clear Holm's first step in the verdict's
// pipeline family (verdict.MinRounds), at least 5, and never more than
// most (the gate's count). alpha 0 means no test follows: exactly most
// rounds. For this repo's 9 rows at alpha 0.05: 6.
func Rounds(rows, most int, alpha float64) int {
	if alpha <= 0 {
		return most
	}
	return min(max(most, 2), max(5, verdict.MinRounds(verdict.PipelineFamily(rows), alpha)))
}
