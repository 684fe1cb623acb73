#!/usr/bin/env bash
# The main job on the embedded default: installs what is missing, brings up a local control
# plane (kube-apiserver + etcd) and the AWS emulator, and runs crossrole on them.
# Arguments are passed on (e.g. --once to tear the stack down as soon as the job is done).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh main
exec node_modules/.bin/node scripts/main.ts "$@"
