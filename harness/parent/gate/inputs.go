package gate

import (
	"context"
	"path/filepath"

	"github.com/wiregate/wiregate/harness/parent/inputs"
)

// readInputs validates every input (the first bad one is the error) and
// returns the settings, their paths made absolute.
func (g *run) readInputs(ctx context.Context) (inputs.Settings, bool) {
	return stage(ctx, g, "inputs", func(ctx context.Context) (inputs.Settings, string, error) {
		s, err := inputs.Parse(g.o.Inputs)
		if err != nil {
			return s, "", err
		}
		if s.WorkingDirectory, err = filepath.Abs(s.WorkingDirectory); err != nil {
			return s, "", err
		}
		if s.Samples != "" && !filepath.IsAbs(s.Samples) {
			s.Samples = filepath.Join(s.WorkingDirectory, s.Samples)
		}
		return s, "", nil
	})
}
