#!/usr/bin/env bash
# The main job's first run on a fresh machine, as a user sees it: a fresh clone of this
# repository's HEAD and every cache empty — crossrole's (CROSSROLE_CACHE), Go's build and module
# caches, npm's and pip's — then `./scripts/main.sh --once`, timed end to end. Prints the figure
# (target ≤ 300 s) and the setup steps' own times from the job's log. Uses the network exactly
# as a first run does (npm registry, PyPI, the Go module proxy). Leaves nothing behind.
#   bench/first-run.sh                 # takes several minutes
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work=$(mktemp -d /tmp/crossrole-first-run.XXXXXX)
trap 'rm -rf "$work"' EXIT

git clone --quiet "$repo" "$work/clone"
export CROSSROLE_CACHE="$work/cache" GOCACHE="$work/go-build" GOMODCACHE="$work/go-mod" GOPATH="$work/go"
export npm_config_cache="$work/npm" PIP_CACHE_DIR="$work/pip"
start=$(date +%s)
# Each line of the job's output stamped with the seconds since the start: where the time went.
stamp() { while IFS= read -r line; do printf '%4ds %s\n' $(($(date +%s) - start)) "$line"; done; }
if ! (cd "$work/clone" && ./scripts/main.sh --once) 2>&1 | stamp >"$work/main.log"; then
  tail -30 "$work/main.log"
  exit 1
fi
seconds=$(($(date +%s) - start))
grep -E '^ *[0-9]+s (\[(ensure-deps|build-control-plane|install-emulator)\]|done in )' "$work/main.log" || true
echo "{\"firstRunSeconds\": $seconds, \"targetSeconds\": 300, \"met\": $([[ $seconds -le 300 ]] && echo true || echo false)}"
