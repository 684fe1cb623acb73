#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kubectl and etcd from the Go module proxy at
# pinned versions and caches the binaries outside the repo, keyed by version (plus a `kubectl`
# link to the pinned one, for people). Idempotent: a second run with the binaries present
# returns at once; a cache missing only some of them builds only those.
#   build-control-plane.sh              etcd and the three Kubernetes commands (the tests')
#   build-control-plane.sh main         etcd and kube-apiserver only, what the main job runs on,
#                                       built without optimisation (`-gcflags=all=-N -l`, cached as
#                                       `<name>-<version>-noopt`): a first run on a fresh machine
#                                       compiles in ~15% less time; a demo does not need the speed, and the
#                                       tests build (and the local stack then prefers) the optimised ones
#
# etcd and Kubernetes build concurrently, so one's module download overlaps the other's compile.
# No `go mod tidy`: `go build -mod=mod` resolves exactly the modules the command imports (tidy
# also fetched every test dependency, ~40 s of a first run).
#
# Why build: the machine reaches only package registries, so no release tarball can be
# downloaded; the Go module proxy serves the Kubernetes and etcd sources.
set -euo pipefail

# shellcheck source=versions.env
source "$(dirname "${BASH_SOURCE[0]}")/versions.env"

CACHE="${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"
BIN="$CACHE/bin"
mkdir -p "$BIN"

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
export GOPATH="${GOPATH:-$HOME/go}"

step() { printf '[build-control-plane] %s\n' "$*" >&2; }
fail() { step "FAILED: $*"; exit 1; }
command -v go >/dev/null || fail "go is not on PATH (needed to build kube-apiserver and etcd)"

KUBE_COMMANDS=(kube-apiserver kube-controller-manager kubectl)
# No DWARF: `-s -w` strips it at link anyway, and generating it is ~12% of the compile. GOGC=400:
# the compiler collects garbage less often (~5% faster; memory is not what a build lacks here).
GCFLAGS="all=-dwarf=false" SUFFIX=""
if [[ "${1:-all}" == "main" ]]; then KUBE_COMMANDS=(kube-apiserver) GCFLAGS="all=-N -l -dwarf=false" SUFFIX="-noopt"; fi
export GOGC=400

# A cached binary: the optimised one serves the main job too.
have() { [[ -x "$BIN/$1" || (-n "$SUFFIX" && -x "$BIN/${1%"$SUFFIX"}") ]]; }

build_kube() {
  local missing=() cmd
  for cmd in "${KUBE_COMMANDS[@]}"; do
    have "$cmd-$KUBE_VERSION$SUFFIX" || missing+=("$cmd")
  done
  ln -sfn "kubectl-$KUBE_VERSION" "$BIN/kubectl"
  if ((${#missing[@]} == 0)); then step "${KUBE_COMMANDS[*]} $KUBE_VERSION cached"; return; fi
  local work="$CACHE/src/kube-$KUBE_VERSION"
  mkdir -p "$work"
  step "building ${missing[*]} $KUBE_VERSION in $work (cold build: several minutes)"
  local kmod
  kmod=$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | python3 -c 'import json,sys;print(json.load(sys.stdin)["GoMod"])')
  local minor="v0.${KUBE_VERSION#v1.}"
  {
    echo "module crossrole.dev/kubebuild"
    echo
    echo "go 1.24.0"
    echo
    echo "require k8s.io/kubernetes $KUBE_VERSION"
    echo
    # k8s.io/kubernetes requires its staging modules at v0.0.0; point each at the matching release.
    grep -E '^\s*k8s\.io/[a-z0-9-]+ v0\.0\.0$' "$kmod" | awk -v v="$minor" '{print "replace " $1 " => " $1 " " v}'
  } >"$work/go.mod"
  cat >"$work/tools.go" <<'GO'
//go:build tools

package kubebuild

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
  local ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION"
  : >"$work/build.log"
  for cmd in "${missing[@]}"; do
    local out="$BIN/$cmd-$KUBE_VERSION$SUFFIX"
    (cd "$work" && go build -trimpath -gcflags "$GCFLAGS" -ldflags "$ldflags" -o "$out.tmp" "k8s.io/kubernetes/cmd/$cmd") >>"$work/build.log" 2>&1 \
      || { tail -30 "$work/build.log" >&2; fail "go build k8s.io/kubernetes/cmd/$cmd (log: $work/build.log)"; }
    mv "$out.tmp" "$out"
    step "built $cmd $KUBE_VERSION"
  done
}

build_etcd() {
  local etcd="$BIN/etcd-$ETCD_VERSION$SUFFIX"
  if have "etcd-$ETCD_VERSION$SUFFIX"; then step "etcd $ETCD_VERSION cached"; return; fi
  local work="$CACHE/src/etcd-$ETCD_VERSION"
  mkdir -p "$work"
  step "building etcd $ETCD_VERSION in $work"
  cat >"$work/go.mod" <<GOMOD
module crossrole.dev/etcdbuild

go 1.24.0

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
GOMOD
  cat >"$work/main.go" <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  (cd "$work" && go build -trimpath -gcflags "$GCFLAGS" -ldflags "-s -w" -o "$etcd.tmp" .) >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "go build etcd (log: $work/build.log)"; }
  mv "$etcd.tmp" "$etcd"
  step "built etcd $ETCD_VERSION"
}

build_etcd &
etcd_build=$!
build_kube &
kube_build=$!
wait "$etcd_build" || fail "etcd (see above)"
wait "$kube_build" || fail "Kubernetes (see above)"
step "ready: $BIN"
