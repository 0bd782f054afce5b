package ci

import "testing"

func env(vars map[string]string) Env { return func(k string) string { return vars[k] } }

func TestTheRunIsWhatTheCISays(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want Run
	}{
		{map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com/", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "9"},
			Run{Name: "GitHub Actions", URL: "https://github.com/o/r/actions/runs/9", Whole: "the job summary"}},
		{map[string]string{"GITHUB_ACTIONS": "true"}, Run{Name: "GitHub Actions", Whole: "the job summary"}},
		{map[string]string{"GITLAB_CI": "true", "CI_JOB_URL": "https://gitlab.example/g/p/-/jobs/7"},
			Run{Name: "GitLab CI", URL: "https://gitlab.example/g/p/-/jobs/7", Whole: "the job's report.md artifact"}},
		{nil, Run{Whole: "report.md"}},
	} {
		if got := Of(env(c.vars)); got != c.want {
			t.Errorf("%v: %+v", c.vars, got)
		}
	}
}
