#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, then type check, lint and
# format check, generated-CRD freshness, and every unit and integration test (real
# kube-apiserver + etcd and the real AWS emulator, started by the tests themselves).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$(date +%s)
bash scripts/ensure-deps.sh
export PATH="$PWD/node_modules/.bin:$PATH"
echo "[test] setup took $(($(date +%s) - start)) s"

echo "[test] type check"; npm run --silent typecheck
echo "[test] lint + format"; npm run --silent lint
echo "[test] generated CRDs, RBAC, chart, config/default and AWS partition data are current"; npm run --silent generate:check
echo "[test] unit + integration tests"
npm test
echo "[test] total $(($(date +%s) - start)) s"
