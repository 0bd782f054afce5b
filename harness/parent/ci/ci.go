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
	// Target is the branch the pull or merge request goes into ("main"),
	// and TargetVar the variable that named it; "" when the run is not a
	// request's.
	Target, TargetVar string
}

// The variables naming the branch a request goes into: a GitHub pull
// request's, a GitLab merge request pipeline's.
const (
	githubTarget = "GITHUB_BASE_REF"
	gitlabTarget = "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
)

// Of is the run env describes. Outside a CI it knows, a target variable
// set anyway (by a CI that borrows GitHub's or GitLab's names, or by hand)
// still names the target.
func Of(env Env) Run {
	var r Run
	switch {
	case env("GITHUB_ACTIONS") == "true":
		r = Run{Name: "GitHub Actions", Whole: "the job summary"}
		server, repo, id := env("GITHUB_SERVER_URL"), env("GITHUB_REPOSITORY"), env("GITHUB_RUN_ID")
		if server != "" && repo != "" && id != "" {
			r.URL = strings.TrimSuffix(server, "/") + "/" + repo + "/actions/runs/" + id
		}
		r.Target, r.TargetVar = target(env, githubTarget)
	case env("GITLAB_CI") == "true":
		r = Run{Name: "GitLab CI", URL: env("CI_JOB_URL"), Whole: "the job's report.md artifact"}
		r.Target, r.TargetVar = target(env, gitlabTarget)
	default:
		r = Run{Whole: "report.md"}
		r.Target, r.TargetVar = target(env, githubTarget, gitlabTarget)
	}
	return r
}

// target is the first of vars that names a branch, and that variable.
func target(env Env, vars ...string) (string, string) {
	for _, v := range vars {
		if b := strings.TrimSpace(env(v)); b != "" {
			return b, v
		}
	}
	return "", ""
}
