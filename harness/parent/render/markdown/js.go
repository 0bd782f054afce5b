package markdown

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
)

// The report's markdown was first written by a TypeScript renderer, and
// its golden comments (test/golden) are byte for byte what that renderer
// wrote: these are JavaScript's rules where Go's differ — how a number is
// written, how long a string is, what whitespace is.

// UTF16Len is s's length in UTF-16 code units, as JavaScript counts a
// string (and GitHub a comment's characters, never more).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// UTF16Prefix is the longest start of s of at most n UTF-16 code units.
func UTF16Prefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// KeepOnly keeps s's ASCII letters and digits and the characters of punct,
// and writes _ for each UTF-16 code unit of every other character (as a
// JavaScript replace over the string's units does).
func KeepOnly(s, punct string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(punct, r):
			b.WriteRune(r)
		default:
			b.WriteString(strings.Repeat("_", utf16.RuneLen(r)))
		}
	}
	return b.String()
}

// isJSSpace is JavaScript's white space and line terminators (what
// String.prototype.trimEnd removes).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// TrimEnd is s without trailing white space, as JavaScript's trimEnd.
func TrimEnd(s string) string { return strings.TrimRightFunc(s, isJSSpace) }

// NumberString writes x as JavaScript's String(x) does: the shortest
// digits that read back as x, without an exponent from 1e-6 to 1e21.
func NumberString(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	// d.ddde±n: the digits, and the exponent n of the first one.
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mantissa, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mantissa, ".", "", 1)
	pow, _ := strconv.Atoi(exp)
	k, n := len(digits), pow+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + out + "e+" + strconv.Itoa(n-1)
	}
	return sign + out + "e" + strconv.Itoa(n-1)
}

// ToFixed writes x with d decimals as JavaScript's x.toFixed(d) does: the
// exact value rounded half away from zero (Go's strconv rounds an exact
// half to even: 0.125 is 0.13 here, 0.12 there).
func ToFixed(x float64, d int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= 1e21 {
		return NumberString(x)
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)
	r := new(big.Rat).SetFloat64(x)
	r.Mul(r, new(big.Rat).SetInt(scale))
	r.Add(r, big.NewRat(1, 2))
	n := new(big.Int).Quo(r.Num(), r.Denom()) // floor: both are positive
	s := n.String()
	if d == 0 {
		return sign + s
	}
	if len(s) <= d {
		s = strings.Repeat("0", d-len(s)+1) + s
	}
	return sign + s[:len(s)-d] + "." + s[len(s)-d:]
}

// Round is JavaScript's Math.round: to the nearest integer, a half up
// (towards +∞).
func Round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f := math.Floor(x)
	if x-f >= 0.5 {
		return f + 1
	}
	return f
}
