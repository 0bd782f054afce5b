// Package forged does not compile, on purpose: a string variable is not a
// format markdown.F takes (TestAStringVariableIsNoFormat builds it).
package forged

import "github.com/wiregate/wiregate/harness/parent/render/markdown"

// Forge tries to make markdown of untrusted text.
func Forge(untrusted string) markdown.Md { return markdown.F(untrusted) }
