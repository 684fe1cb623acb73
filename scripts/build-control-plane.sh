#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kubectl and etcd from the Go module proxy at
# pinned versions and caches the binaries outside the repo, keyed by version (plus a `kubectl`
# link to the pinned one, for people). Idempotent: a second run with the binaries present
# returns at once; a cache missing only some of them builds only those.
#   build-control-plane.sh              etcd and the three Kubernetes commands (the tests')
#   build-control-plane.sh main         etcd and kube-apiserver only: what the main job runs on,
#                                       so a first run on a fresh machine builds no more
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
[[ "${1:-all}" == "main" ]] && KUBE_COMMANDS=(kube-apiserver)

build_kube() {
  local missing=() cmd
  for cmd in "${KUBE_COMMANDS[@]}"; do
    [[ -x "$BIN/$cmd-$KUBE_VERSION" ]] || missing+=("$cmd")
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
  (cd "$work" && go mod tidy -e >"$work/tidy.log" 2>&1 || true)
  : >"$work/build.log"
  for cmd in "${missing[@]}"; do
    (cd "$work" && go build -trimpath -ldflags "$ldflags" -o "$BIN/$cmd-$KUBE_VERSION.tmp" "k8s.io/kubernetes/cmd/$cmd") >>"$work/build.log" 2>&1 \
      || { tail -30 "$work/build.log" >&2; fail "go build k8s.io/kubernetes/cmd/$cmd (log: $work/build.log)"; }
    mv "$BIN/$cmd-$KUBE_VERSION.tmp" "$BIN/$cmd-$KUBE_VERSION"
  done
}

build_etcd() {
  local etcd="$BIN/etcd-$ETCD_VERSION"
  if [[ -x "$etcd" ]]; then step "etcd $ETCD_VERSION cached"; return; fi
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
  (cd "$work" && go mod tidy >"$work/build.log" 2>&1 && go build -trimpath -ldflags "-s -w" -o "$etcd.tmp" .) >>"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "go build etcd (log: $work/build.log)"; }
  mv "$etcd.tmp" "$etcd"
}

build_etcd
build_kube
step "ready: $BIN"
