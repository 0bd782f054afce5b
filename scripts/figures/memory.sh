#!/usr/bin/env bash
# Memory and module size figures (docs/figures.md, "How much memory does
# a large module take?"): peak RSS, wall and CPU time of `wiregate check` and `sizes`
# over every message of a generated 1,300-message module, and of one bench
# warm-up round (`bench --count 1 --benchtime 10ms`) on the 60-message
# module, for the harness of each git revision given, alternating revisions
# run after run (the machine's load drifts).
#
#   scripts/figures/memory.sh OUT RUNS REV...     e.g. OUT=docs/results/memory 2 c86ce32 HEAD
#
# Each REV's harness is exported with git archive and its wiregate built;
# bench programs land in the wiregate cache as usual. Writes
# OUT/<rev>-<what>-<run>.txt: the command, exit code, wall, CPU of the
# process tree, load, peakrss.py's lines (and, for sizes, how many messages
# are big).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$1 runs=$2; shift 2
mkdir -p "$out"
t=$(mktemp -d)
trap 'chmod -R u+w "$t"; rm -rf "$t"' EXIT
export WIREGATE_BUF="${WIREGATE_BUF:-$root/node_modules/.bin/buf}"
python3 scripts/gen-messages.py 1300 "$t/m1300" --files 52 --packages 13 --big-share 0.05 >/dev/null
python3 scripts/gen-messages.py 60 "$t/m60"
for rev in "$@"; do
  mkdir -p "$t/$rev"
  git archive "$rev" harness go.work go.work.sum | tar -x -C "$t/$rev"
  (cd "$t/$rev" && go build -o wiregate ./harness/cmd/wiregate)
  for m in m1300 m60; do "$t/$rev/wiregate" prepare --harness-dir "$t/$rev/harness" --buf-input "$t/$m" >/dev/null; done
done

# cpu sets CPU to the user+sys seconds of every child this shell has waited
# for (a child's own waited children included: the bench program under
# wiregate). It must run in this shell, not in $(…): a subshell has no
# children yet.
cpu() {
  { times; } >"$t/times"
  CPU=$(tail -1 "$t/times" | tr 'ms' '  ' | awk '{printf "%.1f", $1*60+$2+$3*60+$4}')
}

# one FILE COMMAND...: a process tree's peak RSS, wall and CPU time.
one() {
  local file=$1; shift
  local s e c0 c1 rc
  cpu; c0=$CPU; s=$(date +%s.%N)
  python3 scripts/figures/peakrss.py "$@" >"$t/stdout" 2>"$t/stderr" && rc=0 || rc=$?
  e=$(date +%s.%N); cpu; c1=$CPU
  {
    echo "# $(date -u +%F) $*"
    printf 'exit %s, wall %.1f s, cpu %.1f s (user+sys, process tree), load %s\n' "$rc" "$(echo "$e - $s" | bc)" \
      "$(echo "$c1 - $c0" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
    grep PEAK_RSS "$t/stderr" || true
  } >"$file"
  cat "$file"
}

for run in $(seq 1 "$runs"); do
  for what in check sizes bench60; do
    for rev in "$@"; do
      w=("$t/$rev/wiregate")
      case $what in
      check) one "$out/$rev-check-$run.txt" "${w[@]}" check --harness-dir "$t/$rev/harness" --buf-input "$t/m1300" ;;
      sizes) one "$out/$rev-sizes-$run.txt" "${w[@]}" sizes --harness-dir "$t/$rev/harness" --buf-input "$t/m1300" --json
             python3 -c 'import json, sys
rows = json.load(open(sys.argv[1])); pb = [r for r in rows if r["format"] == "protobuf"]
print("%d rows, %d messages; protobuf mean >= 1 KiB: %d, >= 6,000 B: %d; max >= 8,000 B: %d" % (len(rows), len(pb),
      sum(r["bytes_mean"] >= 1024 for r in pb), sum(r["bytes_mean"] >= 6000 for r in pb), sum(r["bytes_max"] >= 8000 for r in pb)))' \
               "$t/stdout" >>"$out/$rev-sizes-$run.txt" ;;
      bench60) one "$out/$rev-bench60-$run.txt" "${w[@]}" bench --harness-dir "$t/$rev/harness" --buf-input "$t/m60" --count 1 --benchtime 10ms ;;
      esac
    done
  done
done
