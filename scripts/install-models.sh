#!/usr/bin/env bash
# Installs the AWS API models the kinds are generated from (src/codegen): botocore's service
# JSON for the served services, the same models ACK's code-generator reads, at the version
# pinned in versions.env. Only `npm run generate` / `generate:check` read them; the controller
# and its tests use the generated, checked-in files. Idempotent: returns at once when the
# pinned version's models of every served service are already extracted (the marker lists them).
#
# Why botocore and not the @aws-sdk/client-* packages: the SDK ships shapes without their
# documentation, and every CRD field's description comes from that documentation.
set -euo pipefail

# shellcheck source=versions.env
source "$(dirname "${BASH_SOURCE[0]}")/versions.env"

CACHE="${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"
DEST="$CACHE/aws-models/botocore-$BOTOCORE_VERSION"
WHEEL_DIR="$CACHE/aws-models/wheels"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step() { printf '[install-models] %s\n' "$*" >&2; }

# The services come from the catalog of served kinds (src/services/catalog.ts): a new kind's
# service is fetched without editing this script. Node and the npm packages are installed first
# (scripts/ensure-deps.sh).
NODE="$ROOT/node_modules/.bin/node"
[[ -x "$NODE" ]] || { step "FAILED: $NODE is missing: run scripts/ensure-deps.sh"; exit 1; }
mapfile -t SERVICES < <("$NODE" "$ROOT/scripts/model-services.ts")
[[ ${#SERVICES[@]} -gt 0 ]] || { step "FAILED: scripts/model-services.ts named no service"; exit 1; }

# The marker lists the services extracted: cached only when it holds every one wanted now.
if [[ -f "$DEST/.complete" ]]; then
  missing=()
  for s in "${SERVICES[@]}"; do grep -qx "$s" "$DEST/.complete" || missing+=("$s"); done
  if [[ ${#missing[@]} -eq 0 ]]; then
    step "botocore $BOTOCORE_VERSION models of ${SERVICES[*]} cached in $DEST"
    exit 0
  fi
  step "botocore $BOTOCORE_VERSION models cached in $DEST lack ${missing[*]}: extracting again"
fi
command -v python3 >/dev/null || { step "FAILED: python3 is not on PATH (needed to fetch botocore's models)"; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
WHEEL=$(ls "$WHEEL_DIR"/botocore-"$BOTOCORE_VERSION"-*.whl 2>/dev/null | head -1 || true)
if [[ -z "$WHEEL" ]]; then
  step "downloading botocore==$BOTOCORE_VERSION (models only; nothing is installed)"
  # A throwaway virtualenv's pip, as install-emulator.sh uses: the system Python may have no pip.
  python3 -m venv "$WORK/venv" >"$WORK/venv.log" 2>&1 \
    || { cat "$WORK/venv.log" >&2; step "FAILED: python3 -m venv (needed to fetch botocore's models)"; exit 1; }
  "$WORK/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$WORK" "botocore==$BOTOCORE_VERSION" >"$WORK/pip.log" 2>&1 \
    || { tail -20 "$WORK/pip.log" >&2; step "FAILED: pip download botocore==$BOTOCORE_VERSION"; exit 1; }
  # Kept (outside the repository) so that a new service later is extracted without a download.
  mkdir -p "$WHEEL_DIR"
  mv "$WORK"/botocore-*.whl "$WHEEL_DIR/"
  WHEEL=$(ls "$WHEEL_DIR"/botocore-"$BOTOCORE_VERSION"-*.whl | head -1)
fi
rm -rf "$DEST"
mkdir -p "$DEST"
python3 - "$WHEEL" "$DEST" "${SERVICES[@]}" <<'PY'
import sys, zipfile, os
wheel, dest, services = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        parts = name.split("/")
        # botocore/data/<service>/<api-version>/service-2.json.gz
        if len(parts) == 5 and parts[:2] == ["botocore", "data"] and parts[2] in services and parts[4] == "service-2.json.gz":
            target = os.path.join(dest, parts[2], parts[3], parts[4])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with z.open(name) as src, open(target, "wb") as out:
                out.write(src.read())
missing = [s for s in services if not os.path.isdir(os.path.join(dest, s))]
if missing:
    sys.exit(f"botocore wheel has no model for: {', '.join(missing)}")
PY
printf '%s\n' "${SERVICES[@]}" >"$DEST/.complete"
step "ready: $DEST"
