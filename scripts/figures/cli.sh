#!/usr/bin/env bash
# The CLI's figures (docs/figures.md, "What does the CLI cost to install
# and run?"): the binary's size; a cold
# first gate in a fresh repository with empty caches (Go's build and module
# caches and wiregate's) against a warm one; and the time from `go install`
# (empty caches too) to a first report. The repository gated is this one's
# schemas with orders.v1.Order grown by a repeated field on a branch,
# gated against the merge base with main; buf 1.75.0 is on PATH
# (node_modules/.bin), outside it. Modules come from $GOPROXY.
#
# Run once, on an otherwise idle machine:
#   bash scripts/figures/cli.sh | tee docs/results/cli-figures.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

flags=(--messages orders.v1.Order --cpu-cost off --pipeline=false --count 3 --history=false --quiet)
echo "# bash scripts/figures/cli.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(go env GOVERSION), $(nproc) cores, commit $(git rev-parse --short HEAD)"
echo "# gate flags: ${flags[*]}; buf on PATH; GOPROXY=$(go env GOPROXY)"

# fresh NAME: a HOME with empty caches, its environment on stdout.
fresh() {
  local home="$tmp/$1"
  mkdir -p "$home"
  echo "HOME=$home XDG_CACHE_HOME=$home/.cache GOCACHE=$home/.cache/go-build GOMODCACHE=$home/go/pkg/mod GOPATH=$home/go GOFLAGS=-modcacherw GOWORK=off"
}

# repo DIR: a fresh clone of a repository holding this one's schemas, on a
# branch that grows orders.v1.Order; origin/HEAD is main.
repo() {
  local dir=$1 seed="$1.seed"
  mkdir -p "$seed"
  cp -r "$root/schemas" "$root/buf.yaml" "$seed/"
  git -C "$seed" init -q -b main
  git -C "$seed" add .
  git -C "$seed" -c user.name=w -c user.email=w@example.test commit -qm schemas
  git clone -q --bare "$seed" "$dir.git"
  git clone -q "$dir.git" "$dir"
  git -C "$dir" checkout -qb feature
  sed -i 's/map<string, string> meta = 7;/map<string, string> meta = 7;\n  repeated string tags = 8;/' "$dir/schemas/orders/v1/order.proto"
  git -C "$dir" -c user.name=w -c user.email=w@example.test commit -qam grow
}

# seconds CMD…: the wall time of CMD, in seconds with one decimal.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || [ $? -le 1 ]
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}

export PATH="$root/node_modules/.bin:$PATH"

# The binary.
(cd harness && GOWORK=off go build -trimpath -o "$tmp/bin/wiregate" ./cmd/wiregate)
size=$(stat -c %s "$tmp/bin/wiregate")
echo "binary (go build -trimpath, linux/$(go env GOARCH)): $size bytes ($(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }') MiB)"

# Cold: the built binary, every cache empty; warm: the same again.
repo "$tmp/cold-repo"
cold_env=$(fresh cold)
cold=$(cd "$tmp/cold-repo" && seconds env $cold_env "$tmp/bin/wiregate" gate "${flags[@]}" --out "$tmp/cold-out")
warm=$(cd "$tmp/cold-repo" && seconds env $cold_env "$tmp/bin/wiregate" gate "${flags[@]}" --out "$tmp/warm-out")
result=$(jq -r '"\(.result), \(.violations | map(.kind) | unique | join(","))"' "$tmp/cold-out/report.json")
echo "first gate, empty caches (module downloads, plugins, bench programs): ${cold} s ($result)"
echo "the same gate again, warm caches:                                   ${warm} s"
jq -r '.stages[] | "  cold stage \(.name): \(.seconds | . * 10 | round / 10) s \(.note // "")"' "$tmp/cold-out/report.json"

# go install to a first report: empty caches, the module from this checkout.
repo "$tmp/install-repo"
install_env=$(fresh install)
install=$(cd harness && seconds env $install_env GOBIN="$tmp/install-bin" go install -trimpath ./cmd/wiregate)
first=$(cd "$tmp/install-repo" && seconds env $install_env "$tmp/install-bin/wiregate" gate "${flags[@]}" --out "$tmp/install-out")
echo "go install (empty caches): ${install} s; then the first report: ${first} s; together $(awk -v a="$install" -v b="$first" 'BEGIN { printf "%.1f", a + b }') s"
