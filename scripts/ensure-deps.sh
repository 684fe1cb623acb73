#!/usr/bin/env bash
# Installs everything crossrole needs to run and test, idempotently, caching outside the repo
# (`ensure-deps.sh main`: only what the main job needs — npm packages, control plane, emulator):
#   - npm packages (Node 24 itself comes from the npm 'node' package) — reinstalled only when
#     package-lock.json changes;
#   - kube-apiserver, kube-controller-manager, kubectl, etcd and helm, built from the Go module proxy;
#   - the AWS API emulator (moto) in a virtualenv;
#   - the container image localhost/crossrole:<version> (podman, on a base assembled from Debian
#     packages; layer-cached), which test/e2e/image.test.ts runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '[ensure-deps] %s\n' "$*" >&2; }
command -v npm >/dev/null || { step "FAILED: npm is not on PATH"; exit 1; }

# The control plane's compile (minutes, CPU) and the emulator's install run while npm installs
# (network): on a fresh machine the first run then takes about as long as the compile alone.
mode="${1:-all}"
bash scripts/build-control-plane.sh "$mode" &
control_plane=$!
bash scripts/install-emulator.sh &
emulator=$!
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT # a failed npm install leaves no build running

lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.crossrole-lock.sha256
if [[ -f "$stamp" && "$(cat "$stamp")" == "$lock_hash" && -x node_modules/.bin/node ]]; then
  step "npm packages up to date"
else
  step "installing npm packages (npm install, from package-lock.json)"
  # npm ci rejects a lock without other platforms' optional packages (biome's), which npm 11 omits here.
  npm install --no-audit --no-fund --loglevel=error
  # Stamp what the install left: npm may add entries to the lock, and the stamp must match the
  # file the next run reads, or every run would reinstall.
  sha256sum package-lock.json | cut -d' ' -f1 >"$stamp"
fi
node_major=$(node_modules/.bin/node -p 'process.versions.node.split(".")[0]')
[[ "$node_major" -ge 24 ]] || { step "FAILED: node_modules/.bin/node is Node $node_major, expected 24+"; exit 1; }

wait "$control_plane" || { step "FAILED: scripts/build-control-plane.sh $mode (see above)"; exit 1; }
wait "$emulator" || { step "FAILED: scripts/install-emulator.sh (see above)"; exit 1; }

# What the main job runs on: the control plane and the emulator. The rest only the tests need.
if [[ "$mode" == "main" ]]; then
  step "main job: skipping kube-controller-manager, kubectl, helm, the AWS models, the browser and the image (the tests install them)"
  exit 0
fi
bash scripts/build-helm.sh
bash scripts/install-models.sh
bash scripts/install-browser.sh >/dev/null
bash scripts/build-image.sh >/dev/null
