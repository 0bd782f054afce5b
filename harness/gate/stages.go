package gate

import (
	"context"

	"github.com/wiregate/wiregate/harness/report"
)

// Interim: Avro compatibility and the pipeline stage are wired in once
// their packages land; until then the verdict only turns stage errors into
// `error` violations.
func (g *run) avroCompat(ctx context.Context) error { return nil }
func (g *run) pipeline(ctx context.Context) error   { return nil }
func (g *run) verdict(ctx context.Context) error {
	for _, e := range g.r.Errors {
		g.r.Violations = append(g.r.Violations, report.Violation{Kind: report.KindError, Subject: "wiregate", Detail: e})
	}
	g.r.Decide()
	return nil
}
