# Shared by the before/after figure scripts (count-cost.sh, cpu-stage.sh,
# power.sh, release-history.sh); sourced, not a set of scripts/figures.sh.
# Call it from the repository root.
#
# before_after REV [TREE]: a scratch directory $work (removed on exit, with
# the worktree), REV checked out in the worktree $work/TREE (default
# "before"; $before_tree), and two wiregates built: REV's at $work/wg-before
# ($wg_before) and this tree's at $work/wg-after ($wg_after).
before_after() {
  local rev=$1
  work=$(mktemp -d)
  before_tree=$work/${2:-before}
  wg_before=$work/wg-before
  wg_after=$work/wg-after
  trap 'git worktree remove --force "$before_tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  git worktree add -q --detach "$before_tree" "$rev"
  (cd "$before_tree/harness" && go build -o "$wg_before" ./cmd/wiregate)
  (cd harness && go build -o "$wg_after" ./cmd/wiregate)
}
