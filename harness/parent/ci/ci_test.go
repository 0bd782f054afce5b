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
		// The branch a request goes into, from its CI's own variable.
		{map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": " main ", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "dev"},
			Run{Name: "GitHub Actions", Whole: "the job summary", Target: "main", TargetVar: "GITHUB_BASE_REF"}},
		{map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": ""}, Run{Name: "GitHub Actions", Whole: "the job summary"}},
		{map[string]string{"GITLAB_CI": "true", "GITHUB_BASE_REF": "main", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "dev"},
			Run{Name: "GitLab CI", Whole: "the job's report.md artifact", Target: "dev", TargetVar: "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"}},
		// Outside a CI it knows, either variable set still names it.
		{map[string]string{"GITHUB_BASE_REF": "main"}, Run{Whole: "report.md", Target: "main", TargetVar: "GITHUB_BASE_REF"}},
		{map[string]string{"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "dev"}, Run{Whole: "report.md", Target: "dev", TargetVar: "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"}},
	} {
		if got := Of(env(c.vars)); got != c.want {
			t.Errorf("%v: %+v", c.vars, got)
		}
	}
}
