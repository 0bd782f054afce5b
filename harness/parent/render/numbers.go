package render

import (
	"math"
	"regexp"
	"strconv"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
)

// Number formatting for the report: short, fixed rules, no locale. Every
// formatter gives markdown (numerals and its own literals).

// pct is "+12.3%", "-4.0%", "+174%" (signed) or "5.0%"; "n/a" for no number.
func pct(x *float64, signed bool) md.Md {
	if x == nil || math.IsNaN(*x) || math.IsInf(*x, 0) {
		return md.F("n/a")
	}
	v := *x
	digits := 1
	if math.Abs(v) >= 100 {
		digits = 0
	}
	s := md.Numeral(md.ToFixed(v, digits))
	if signed && v >= 0 {
		return md.F("+{}%", s)
	}
	return md.F("{}%", s)
}

// pValue is "p=0.002", or "p<0.001" with the < as an entity (no raw < is
// left in the comment but its own tags); empty for no number.
func pValue(p *float64) md.Md {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return md.Empty
	}
	if *p < 0.001 {
		return md.F("p&lt;0.001")
	}
	return md.F("p={}", md.Numeral(md.ToFixed(*p, 3)))
}

// seconds formats a sec/op value with the unit that keeps 3 significant digits.
func seconds(s float64) md.Md {
	abs := math.Abs(s)
	switch {
	case abs >= 1:
		return md.F("{} s", sig(s))
	case abs >= 1e-3:
		return md.F("{} ms", sig(s*1e3))
	case abs >= 1e-6:
		return md.F("{} µs", sig(s*1e6))
	}
	return md.F("{} ns", sig(s*1e9))
}

// instructions formats an instr/op count: 3,784, 38.4k.
func instructions(n float64) md.Md {
	if math.Abs(n) >= 1e4 {
		return md.F("{}k", sig(n/1e3))
	}
	return integer(n)
}

// bytes is a bytes/msg figure: one decimal.
func bytes(b float64) md.Md { return md.Numeral(md.ToFixed(b, 1)) }

// rate formats records per second: 1.23M, 456k.
func rate(r float64) md.Md {
	abs := math.Abs(r)
	switch {
	case abs >= 1e6:
		return md.F("{}M", sig(r/1e6))
	case abs >= 1e3:
		return md.F("{}k", sig(r/1e3))
	}
	return sig(r)
}

func sig(x float64) md.Md {
	abs := math.Abs(x)
	switch {
	case abs >= 100:
		return md.Numeral(md.ToFixed(x, 0))
	case abs >= 10:
		return md.Numeral(md.ToFixed(x, 1))
	}
	return md.Numeral(md.ToFixed(x, 2))
}

// measure formats a value in its unit: "410 ns", "104.1 B/msg", "1.20M
// records/s". A unit it does not know is report.json's text, escaped.
func measure(x float64, unit string) md.Md {
	switch unit {
	case "sec/op":
		return seconds(x)
	case "B/msg":
		return md.F("{} B/msg", bytes(x))
	case "B/record":
		return md.F("{} B/record", bytes(x))
	case "records/s":
		return md.F("{} records/s", rate(x))
	case "instr/op":
		return md.F("{} instr/op", instructions(x))
	}
	return md.F("{} {}", sig(x), unit)
}

// integer formats a whole number with thousands separators: 200,000.
func integer(n float64) md.Md {
	return md.Numeral(thousands(md.NumberString(md.Round(n))))
}

var thousandsAt = regexp.MustCompile(`^(-?\d+)(\d{3})`)

// thousands puts a comma before every third digit from the right.
func thousands(s string) string {
	for {
		next := thousandsAt.ReplaceAllString(s, "$1,$2")
		if next == s {
			return s
		}
		s = next
	}
}

// mebibytes formats a byte count in MiB, or GiB from 1 GiB: "128 MiB", "1 GiB", "23.9 MiB".
func mebibytes(b float64) md.Md {
	v, unit := b/(1<<20), md.F("MiB")
	if b >= 1<<30 {
		v, unit = b/(1<<30), md.F("GiB")
	}
	if v == math.Trunc(v) && !math.IsInf(v, 0) {
		return md.F("{} {}", v, unit)
	}
	return md.F("{} {}", sig(v), unit)
}

// wallSeconds is a stage's wall time: "12.3 s".
func wallSeconds(s float64) md.Md { return md.F("{} s", md.Numeral(md.ToFixed(s, 1))) }

var fullSha = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

// shortSha is a commit's first 7 hex digits; anything that is not a sha
// is left as it is (escaped where it is shown).
func shortSha(sha string) string {
	if fullSha.MatchString(sha) {
		return sha[:7]
	}
	return sha
}

// count is "1 message", "60 messages".
func count(n int, one, many string) md.Md {
	word := many
	if n == 1 {
		word = one
	}
	return md.F("{} {}", integer(float64(n)), word)
}

// itoa is n's digits (a number shown as the gate counted it).
func itoa(n int) string { return strconv.Itoa(n) }
