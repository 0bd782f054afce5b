package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/parent/git"
)

// File is the store's file on the branch: one JSON Point per line, oldest
// first.
const File = "history.jsonl"

// Remote is where the branch lives: the clone's origin, which
// actions/checkout configures with the job's token.
const Remote = "origin"

// MaxAttempts bounds how often Append fetches, re-appends and pushes when
// another run pushed first. Pushes to the default branch are seconds
// apart at most, so a handful of attempts outlasts any realistic burst.
const MaxAttempts = 5

// ErrNoHistory is Read's error when there is no history to read: no
// branch on the remote yet, no remote, or not a git checkout.
var ErrNoHistory = errors.New("no history")

// Store is the history branch of the repository checked out in Dir. It
// never touches Dir's working tree, index or current branch: the branch is
// fetched into a private ref, commits are made with hash-object, mktree and
// commit-tree, and pushed by sha.
type Store struct {
	Dir    string
	Branch string
	// beforePush runs between the fetch and the push of each attempt; the
	// concurrency test pushes from another clone there.
	beforePush func(attempt int)
}

// privateRef is where the fetched branch is kept while the store works;
// the process id keeps two runs in one clone apart.
func (s Store) privateRef() string {
	return fmt.Sprintf("refs/wiregate/%d/%s", os.Getpid(), s.Branch)
}

// Read returns every point on the branch, oldest first. Lines that are not
// a point (hand edits, a future format) are skipped and counted.
func (s Store) Read(ctx context.Context) (points []Point, skipped int, err error) {
	tip, err := s.fetch(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer s.dropPrivateRef()
	if tip == "" {
		return nil, 0, fmt.Errorf("%w: no branch %s on %s yet (a push to the default branch records it)", ErrNoHistory, s.Branch, Remote)
	}
	data, err := s.file(ctx, tip)
	if err != nil {
		return nil, 0, err
	}
	points, skipped = parse(data)
	return points, skipped, nil
}

func parse(data []byte) (points []Point, skipped int) {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var p Point
		if err := json.Unmarshal(line, &p); err != nil || p.Sha == "" {
			skipped++
			continue
		}
		points = append(points, p)
	}
	return points, skipped
}

// Append adds p as the branch's last line and pushes it, never forcing: a
// push rejected because another run pushed first is retried on top of
// theirs (fetch, re-append, push), up to MaxAttempts times. A sha the
// branch already holds (a re-run of the same push) is not added twice:
// attempts is then 0.
func (s Store) Append(ctx context.Context, p Point) (attempts int, err error) {
	line, err := json.Marshal(p)
	if err != nil {
		return 0, fmt.Errorf("encode history point: %w", err)
	}
	defer s.dropPrivateRef()
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		tip, err := s.fetch(ctx)
		if err != nil {
			return attempt, err
		}
		var data []byte
		if tip != "" {
			if data, err = s.file(ctx, tip); err != nil {
				return attempt, err
			}
		}
		if points, _ := parse(data); has(points, p.Sha) {
			return 0, nil
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		commit, err := s.commit(ctx, tip, append(append(data, line...), '\n'), p)
		if err != nil {
			return attempt, err
		}
		if s.beforePush != nil {
			s.beforePush(attempt)
		}
		rejected, err := s.push(ctx, commit)
		if err != nil || !rejected {
			return attempt, err
		}
		if err := sleep(ctx, backoff(attempt)); err != nil {
			return attempt, err
		}
	}
	return MaxAttempts, fmt.Errorf("history branch %s: the push was rejected %d times because other runs kept pushing first; the next push to the default branch records its own point", s.Branch, MaxAttempts)
}

func has(points []Point, sha string) bool {
	for _, p := range points {
		if p.Sha == sha {
			return true
		}
	}
	return false
}

// backoff grows with the attempt and is jittered, so runs that collided
// once do not collide again in lockstep.
func backoff(attempt int) time.Duration {
	base := time.Duration(attempt) * 200 * time.Millisecond
	return base + rand.N(base)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// fetch brings the remote branch into the private ref and returns its sha,
// or "" when the remote has no such branch.
func (s Store) fetch(ctx context.Context) (string, error) {
	if _, err := git.Run(ctx, s.Dir, "rev-parse", "--git-dir"); err != nil {
		return "", fmt.Errorf("%w: %s is not a git checkout", ErrNoHistory, s.Dir)
	}
	if _, err := git.Run(ctx, s.Dir, "remote", "get-url", Remote); err != nil {
		return "", fmt.Errorf("%w: the clone has no remote %s", ErrNoHistory, Remote)
	}
	// ls-remote --exit-code exits 2 when the remote has no such ref.
	if _, err := git.Run(ctx, s.Dir, "ls-remote", "--exit-code", "--heads", Remote, "refs/heads/"+s.Branch); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 2 {
			return "", nil
		}
		return "", fmt.Errorf("history branch %s: %w", s.Branch, err)
	}
	// The branch's history is its own (an orphan of one small commit per
	// push), so fetching all of it is cheap, also in a shallow clone.
	if _, err := git.Run(ctx, s.Dir, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", Remote,
		"+refs/heads/"+s.Branch+":"+s.privateRef()); err != nil {
		return "", fmt.Errorf("history branch %s: %w", s.Branch, err)
	}
	return git.Run(ctx, s.Dir, "rev-parse", "--verify", s.privateRef()+"^{commit}")
}

func (s Store) dropPrivateRef() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = git.Run(ctx, s.Dir, "update-ref", "-d", s.privateRef())
}

// file is File at commit, empty when the commit has none.
func (s Store) file(ctx context.Context, commit string) ([]byte, error) {
	if _, err := git.Run(ctx, s.Dir, "cat-file", "-e", commit+":"+File); err != nil {
		return nil, nil
	}
	out, err := git.Output(ctx, s.Dir, "cat-file", "blob", commit+":"+File)
	if err != nil {
		return nil, fmt.Errorf("history branch %s: %w", s.Branch, err)
	}
	return out, nil
}

// readme is the branch's README, written with its first commit.
const readme = `This branch is written by wiregate on every push to the default branch:
one JSON line per commit in ` + File + `, with its exact wire figures
(bytes/msg, allocs/op, instr/op per message and format). Pull requests read
it to chart how a changed message got where it is. Do not merge it into a
code branch; deleting it starts the history over.
`

// identity is the author and committer of the branch's commits: the runner
// may have no git identity configured, and these commits are the tool's.
var identity = []string{
	"GIT_AUTHOR_NAME=wiregate", "GIT_AUTHOR_EMAIL=wiregate@users.noreply.github.com",
	"GIT_COMMITTER_NAME=wiregate", "GIT_COMMITTER_EMAIL=wiregate@users.noreply.github.com",
}

// commit writes data as File on top of parent's tree ("" for the first
// commit) and returns the new commit's sha; other files on the branch are
// kept as they are.
func (s Store) commit(ctx context.Context, parent string, data []byte, p Point) (string, error) {
	blob, err := git.Call{Stdin: data}.Text(ctx, s.Dir, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", err
	}
	entries := map[string]string{}
	if parent != "" {
		ls, err := git.Run(ctx, s.Dir, "ls-tree", "-z", parent)
		if err != nil {
			return "", err
		}
		for _, e := range strings.Split(ls, "\x00") {
			if _, name, ok := strings.Cut(e, "\t"); ok {
				entries[name] = e
			}
		}
	} else {
		rb, err := git.Call{Stdin: []byte(readme)}.Text(ctx, s.Dir, "hash-object", "-w", "--stdin")
		if err != nil {
			return "", err
		}
		entries["README.md"] = "100644 blob " + rb + "\tREADME.md"
	}
	entries[File] = "100644 blob " + blob + "\t" + File
	var tree bytes.Buffer
	for _, e := range entries {
		tree.WriteString(e)
		tree.WriteByte(0)
	}
	treeSha, err := git.Call{Stdin: tree.Bytes()}.Text(ctx, s.Dir, "mktree", "-z")
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", treeSha, "-m", fmt.Sprintf("wiregate: %s on %s", p.Sha, p.Ref)}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	return git.Call{Env: identity}.Text(ctx, s.Dir, args...)
}

// push pushes commit to the branch without force. rejected is true when
// the remote refused it because the branch moved (another run pushed
// first): the caller retries on top. Any other refusal is an error.
func (s Store) push(ctx context.Context, commit string) (rejected bool, err error) {
	// --porcelain prints one status line per ref on stdout ("!" when
	// refused); --no-verify: the repository's pre-push hooks are for its
	// code, not this branch.
	stdout, stderr, err := git.Call{Env: identity}.Do(ctx, s.Dir, "push", "--porcelain", "--no-verify", Remote, commit+":refs/heads/"+s.Branch)
	if err == nil {
		return false, nil
	}
	for _, line := range strings.Split(string(stdout), "\n") {
		if strings.HasPrefix(line, "!") && movedUnderUs(line+"\n"+string(stderr)) {
			return true, nil
		}
	}
	return false, fmt.Errorf("push history branch %s to %s: %w (the job needs 'permissions: contents: write'; or set history: false)", s.Branch, Remote, err)
}

// movedUnderUs is a refusal that means the branch changed between our
// fetch and our push (or was created by another run meanwhile).
func movedUnderUs(output string) bool {
	for _, why := range []string{"fetch first", "non-fast-forward", "stale info", "cannot lock ref", "incorrect old value", "reference already exists"} {
		if strings.Contains(output, why) {
			return true
		}
	}
	return false
}

// CommitDate is sha's committer date in dir's repository, RFC 3339 (""
// when git does not know it): the date a point is charted at.
func CommitDate(ctx context.Context, dir, sha string) string {
	date, err := git.Run(ctx, dir, "show", "-s", "--format=%cI", sha)
	if err != nil {
		return ""
	}
	return date
}

// ancestorChecks bounds how many points, newest first, PointAt tries as
// ancestors of a commit when none is the commit itself.
const ancestorChecks = 20

// PointAt is the point of base, else the newest of an ancestor of base
// (git in dir decides; a point whose commit the clone lacks is passed
// over), else nil.
func PointAt(ctx context.Context, dir string, points []Point, base string) *Point {
	if base == "" {
		return nil
	}
	for i := len(points) - 1; i >= 0; i-- {
		if points[i].Sha == base {
			return &points[i]
		}
	}
	for i, tried := len(points)-1, 0; i >= 0 && tried < ancestorChecks; i, tried = i-1, tried+1 {
		if _, err := git.Run(ctx, dir, "merge-base", "--is-ancestor", points[i].Sha, base); err == nil {
			return &points[i]
		}
	}
	return nil
}
