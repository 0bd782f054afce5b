// Package gfm renders markdown to HTML as GitHub does before its
// sanitizer (CommonMark, GFM tables, bare links, raw HTML let through):
// the tests' reader of what the renderer writes.
package gfm

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))

// HTML is markdown rendered.
func HTML(t testing.TB, markdown string) string {
	t.Helper()
	var b strings.Builder
	if err := gfm.Convert([]byte(markdown), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
