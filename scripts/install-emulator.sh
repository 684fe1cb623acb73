#!/usr/bin/env bash
# Installs the AWS API emulator (moto in server mode, pinned) into a cached virtualenv outside
# the repo. Idempotent: returns at once when the pinned version is already installed.
set -euo pipefail

# shellcheck source=versions.env
source "$(dirname "${BASH_SOURCE[0]}")/versions.env"

CACHE="${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"
VENV="$CACHE/moto-$MOTO_VERSION"
step() { printf '[install-emulator] %s\n' "$*" >&2; }

if [[ -x "$VENV/bin/moto_server" && -f "$VENV/.complete" ]]; then
  step "moto $MOTO_VERSION cached in $VENV"
  exit 0
fi
command -v python3 >/dev/null || { step "FAILED: python3 is not on PATH (needed for the moto emulator)"; exit 1; }
rm -rf "$VENV"
step "installing moto[server]==$MOTO_VERSION into $VENV"
python3 -m venv "$VENV"
# --no-compile: no bytecode for all of botocore up front (CPU a first run's compile needs);
# Python writes it for the modules moto imports, as it imports them.
"$VENV/bin/pip" install --quiet --disable-pip-version-check --no-compile "moto[server]==$MOTO_VERSION" >"$CACHE/moto-install.log" 2>&1 \
  || { tail -20 "$CACHE/moto-install.log" >&2; step "FAILED: pip install moto[server]==$MOTO_VERSION (log: $CACHE/moto-install.log)"; exit 1; }
touch "$VENV/.complete"
step "ready: $VENV/bin/moto_server"
