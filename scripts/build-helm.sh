#!/usr/bin/env bash
# Builds Helm from the Go module proxy at the pinned version (HELM_VERSION in versions.env) and
# caches it outside the repo: $CROSSROLE_CACHE/bin/helm-<version>, with bin/helm linked to it.
# Idempotent: a second run with the binary present returns at once.
#
# Why build: the machine reaches only package registries, so no release tarball can be
# downloaded; the Go module proxy serves helm.sh/helm/v3. Used by the chart tests and by
# `npm run generate` (config/default/ is `helm template` of helm/crossrole).
set -euo pipefail

# shellcheck source=versions.env
source "$(dirname "${BASH_SOURCE[0]}")/versions.env"

CACHE="${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"
BIN="$CACHE/bin"
mkdir -p "$BIN"

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
export GOPATH="${GOPATH:-$HOME/go}"

step() { printf '[build-helm] %s\n' "$*" >&2; }
fail() { step "FAILED: $*"; exit 1; }

helm="$BIN/helm-$HELM_VERSION"
link() { ln -sfn "helm-$HELM_VERSION" "$BIN/helm"; }
if [[ -x "$helm" ]]; then link; step "helm $HELM_VERSION cached"; exit 0; fi
command -v go >/dev/null || fail "go is not on PATH (needed to build helm)"

work="$CACHE/src/helm-$HELM_VERSION"
mkdir -p "$work"
step "building helm $HELM_VERSION in $work (cold build: about 2 minutes on 2 cores)"
# What Helm's Makefile stamps in: its own version, and the Kubernetes version its client-go
# matches (client-go v0.N -> Kubernetes 1.N), which `helm template`/`lint` use for
# .Capabilities.KubeVersion and for Chart.yaml's kubeVersion. Unstamped, Helm says 1.20.
gomod=$(go mod download -json "helm.sh/helm/v3@$HELM_VERSION" 2>"$work/download.log" \
  | python3 -c 'import json,sys;print(json.load(sys.stdin)["GoMod"])') \
  || { cat "$work/download.log" >&2; fail "go mod download helm.sh/helm/v3@$HELM_VERSION"; }
k8s_minor=$(awk '$1 == "k8s.io/client-go" { split($2, v, "."); print v[2]; exit }' "$gomod")
[[ -n "$k8s_minor" ]] || fail "no k8s.io/client-go requirement in $gomod"
ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  ldflags+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$k8s_minor"
done
# `go install module@version` builds with helm's own go.mod and go.sum (checksums verified).
(GOBIN="$work/bin" go install -trimpath -ldflags "$ldflags" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION") \
  >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log" >&2; fail "go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION (log: $work/build.log)"; }
mv "$work/bin/helm" "$helm.tmp"
mv "$helm.tmp" "$helm"
link
step "ready: $helm ($("$helm" version --short))"
