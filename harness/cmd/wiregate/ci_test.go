package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/internal/gittest"
)

// between is docs/ci.md's fenced block between <!-- name:begin --> and
// <!-- name:end -->, without its fences.
func between(t *testing.T, doc, name string) string {
	t.Helper()
	m := regexp.MustCompile("(?s)<!-- " + name + ":begin -->\n```[a-z]*\n(.*?)```\n<!-- " + name + ":end -->").FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/ci.md has no %s block", name)
	}
	return m[1]
}

// gitLab stands in for GitLab's merge request notes API: project 42,
// merge request 5, the token glpat-test is user 7's. Page 1 of the notes
// is a hundred of other people's; the job's own note lands on page 2.
type gitLab struct {
	mu       sync.Mutex
	requests []string
	notes    []map[string]any
}

func (g *gitLab) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	token := "PRIVATE-TOKEN " + r.Header.Get("PRIVATE-TOKEN")
	if r.Header.Get("PRIVATE-TOKEN") == "" {
		token = "JOB-TOKEN " + r.Header.Get("JOB-TOKEN")
	}
	_ = r.ParseForm()
	body := r.PostForm.Get("body")
	g.requests = append(g.requests, fmt.Sprintf("%s %s?%s [%s] %d", r.Method, r.URL.Path, r.URL.RawQuery, token, len(body)))
	const notes = "/api/v4/projects/42/merge_requests/5/notes"
	switch {
	case r.URL.Path == "/api/v4/user":
		if token != "PRIVATE-TOKEN glpat-test" {
			http.Error(w, `{"message":"401 Unauthorized"}`, http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"id": 7, "username": "project_42_bot"}`)
	case r.Method == http.MethodGet && r.URL.Path == notes:
		page := []map[string]any{}
		if r.URL.Query().Get("page") == "1" {
			for i := range 100 {
				page = append(page, map[string]any{"id": i + 1, "body": "a reviewer's note", "author": map[string]any{"id": 9}})
			}
			w.Header().Set("X-Next-Page", "2")
		} else {
			page = append(page, g.notes...)
			w.Header().Set("X-Next-Page", "")
		}
		_ = json.NewEncoder(w).Encode(page)
	case r.Method == http.MethodPost && r.URL.Path == notes:
		note := map[string]any{"id": 1000 + len(g.notes), "body": body, "author": map[string]any{"id": 7}}
		g.notes = append(g.notes, note)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(note)
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, notes+"/"):
		for _, n := range g.notes {
			if fmt.Sprint(n["id"]) == strings.TrimPrefix(r.URL.Path, notes+"/") {
				n["body"] = body
				_ = json.NewEncoder(w).Encode(n)
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

// The GitLab job of docs/ci.md, its script as written there, in a shallow,
// detached clone of a merge request with GitLab's variables: the gate
// finds its base from CI_MERGE_REQUEST_TARGET_BRANCH_NAME, the note step
// creates the note on the first pipeline and edits it in place on the
// next, with the project token or the job token.
func TestTheGitLabJobPostsItsNoteAndEditsItInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wiregate gate")
	}
	root, _ := filepath.Abs(repoRoot(t))
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	var job map[string]struct {
		Script []string `yaml:"script"`
	}
	if err := yaml.Unmarshal([]byte(between(t, string(doc), "gitlab-job")), &job); err != nil {
		t.Fatal(err)
	}
	script := job["wiregate"].Script
	if len(script) == 0 {
		t.Fatal("the job has no script")
	}

	// A merge request that changes no schema, into main.
	home := t.TempDir()
	git := func(dir string, args ...string) { t.Helper(); gittest.Git(t, dir, nil, args...) }
	up := mkdir(t, filepath.Join(home, "upstream"))
	if out, err := exec.Command("cp", "-r", filepath.Join(root, "schemas"), filepath.Join(root, "buf.yaml"), up).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	git(up, "init", "-q", "-b", "main")
	git(up, "add", ".")
	git(up, "commit", "-qm", "schemas")
	git(up, "checkout", "-qb", "feature")
	if err := os.WriteFile(filepath.Join(up, "README.md"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(up, "add", ".")
	git(up, "commit", "-qm", "readme")
	clone := filepath.Join(home, "build")
	git(home, "clone", "-q", "--depth=1", "--branch", "feature", "file://"+up, clone)
	git(clone, "checkout", "-q", "--detach")
	if err := os.WriteFile(filepath.Join(mkdir(t, filepath.Join(clone, "ci")), "wiregate-note.sh"), []byte(between(t, string(doc), "gitlab-note")), 0o755); err != nil {
		t.Fatal(err)
	}

	api := &gitLab{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	pipeline := func(token string) string {
		t.Helper()
		cmd := exec.Command("bash", "-eo", "pipefail", "-c", strings.Join(script, "\n"))
		cmd.Dir = clone
		cmd.Env = append(os.Environ(),
			"PATH="+filepath.Dir(wiregateBin(t))+string(os.PathListSeparator)+filepath.Join(root, "node_modules", ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
			"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "WIREGATE_HARNESS=",
			"GITLAB_CI=true", "CI_API_V4_URL="+srv.URL+"/api/v4", "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=5",
			"CI_PROJECT_PATH=group/project", "CI_JOB_NAME=wiregate", "CI_JOB_URL=https://gitlab.example/group/project/-/jobs/77",
			"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "CI_JOB_TOKEN=job-token-test", "WIREGATE_GITLAB_TOKEN="+token,
			"WIREGATE_FLAGS=--messages orders.v1.Order --cpu-cost off --pipeline=false --count 2 --history=false")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("the job failed: %v\n%s", err, out.String())
		}
		return out.String()
	}

	first := pipeline("glpat-test")
	if !strings.Contains(first, "wiregate: against main at ") || !strings.Contains(first, "wiregate: note created") {
		t.Fatalf("%s", first)
	}
	if len(api.notes) != 1 {
		t.Fatalf("%d notes", len(api.notes))
	}
	note := api.notes[0]["body"].(string)
	if rendered, err := os.ReadFile(filepath.Join(clone, ".wiregate", "note.md")); err != nil || string(rendered) != note {
		t.Errorf("the note's body is not wiregate render's comment (%v)", err)
	}
	if !strings.HasPrefix(note, "<!-- wiregate:group/project/wiregate -->\n## ✅ wiregate: pass — no schema changed\n") {
		t.Errorf("the note:\n%.300s", note)
	}
	second := pipeline("glpat-test")
	if !strings.Contains(second, "wiregate: note 1000 updated") || len(api.notes) != 1 {
		t.Fatalf("%d notes\n%s", len(api.notes), second)
	}
	third := pipeline("") // the job token alone: it cannot ask who it is
	if !strings.Contains(third, "wiregate: note 1000 updated") || len(api.notes) != 1 {
		t.Fatalf("%d notes\n%s", len(api.notes), third)
	}
	list := "sort=asc&order_by=created_at&per_page=100&page="
	notes := "/api/v4/projects/42/merge_requests/5/notes"
	want := []string{
		"GET /api/v4/user? [PRIVATE-TOKEN glpat-test]",
		"GET " + notes + "?" + list + "1 [PRIVATE-TOKEN glpat-test]",
		"GET " + notes + "?" + list + "2 [PRIVATE-TOKEN glpat-test]",
		fmt.Sprintf("POST %s? [PRIVATE-TOKEN glpat-test] %d", notes, len(note)),
		"GET /api/v4/user? [PRIVATE-TOKEN glpat-test]",
		"GET " + notes + "?" + list + "1 [PRIVATE-TOKEN glpat-test]",
		"GET " + notes + "?" + list + "2 [PRIVATE-TOKEN glpat-test]",
		fmt.Sprintf("PUT %s/1000? [PRIVATE-TOKEN glpat-test] %d", notes, len(note)),
		"GET /api/v4/user? [JOB-TOKEN job-token-test]",
		"GET " + notes + "?" + list + "1 [JOB-TOKEN job-token-test]",
		"GET " + notes + "?" + list + "2 [JOB-TOKEN job-token-test]",
		fmt.Sprintf("PUT %s/1000? [JOB-TOKEN job-token-test] %d", notes, len(note)),
	}
	for i := range want {
		want[i] = strings.TrimSuffix(want[i], " 0")
	}
	got := make([]string, len(api.requests))
	for i, r := range api.requests {
		got[i] = strings.TrimSuffix(r, " 0")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if u, _ := url.Parse(srv.URL); u.Hostname() != "127.0.0.1" {
		t.Errorf("the stand-in is on %s", u.Host)
	}
}
