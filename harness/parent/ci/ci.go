// Package ci reads what a CI system says about the run wiregate is in,
// from its own environment variables: the run's page, and the branch a
// pull or merge request targets. Outside CI it says nothing.
package ci

import "strings"

// Env looks a variable up (os.Getenv in wiregate, a map in tests).
type Env func(string) string

// Run is the CI run wiregate is in.
type Run struct {
	// Name is the CI system: "GitHub Actions", "GitLab CI", or "" outside CI.
	Name string
	// URL is the run's page (a GitHub workflow run, a GitLab job); "" when
	// the CI does not say.
	URL string
	// Whole says where the whole report is when a comment has no room for
	// all of it.
	Whole string
}

// Of is the run env describes.
func Of(env Env) Run {
	switch {
	case env("GITHUB_ACTIONS") == "true":
		r := Run{Name: "GitHub Actions", Whole: "the job summary"}
		server, repo, id := env("GITHUB_SERVER_URL"), env("GITHUB_REPOSITORY"), env("GITHUB_RUN_ID")
		if server != "" && repo != "" && id != "" {
			r.URL = strings.TrimSuffix(server, "/") + "/" + repo + "/actions/runs/" + id
		}
		return r
	case env("GITLAB_CI") == "true":
		return Run{Name: "GitLab CI", URL: env("CI_JOB_URL"), Whole: "the job's report.md artifact"}
	}
	return Run{Whole: "report.md"}
}
