#!/usr/bin/env bash
# Installs a headless browser for test/integration/audit-html.test.ts, idempotently: Debian's
# `chromium` package, with apt-get, when neither `chromium` nor `chromium-headless-shell` is on
# PATH (needs root). The test renders `crossrole audit -o html` in it and takes a screenshot.
#
# Prints the browser's path on stdout (last line); progress and the time taken on stderr.
# CROSSROLE_BROWSER, when set, names a browser to use instead (nothing is installed).
set -euo pipefail

CACHE="${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"
WORK="$CACHE/browser"

step() { printf '[install-browser] %s\n' "$*" >&2; }
fail() { step "FAILED: $*"; exit 1; }

find_browser() {
  if [[ -n "${CROSSROLE_BROWSER:-}" ]]; then
    command -v "$CROSSROLE_BROWSER" || fail "CROSSROLE_BROWSER=$CROSSROLE_BROWSER is not an executable"
    return
  fi
  # chromium-headless-shell first: the smaller binary made for exactly this, when someone has it.
  command -v chromium-headless-shell || command -v chromium || true
}

browser=$(find_browser)
if [[ -n "$browser" ]]; then
  step "browser present: $browser"
  echo "$browser"
  exit 0
fi

[[ $(id -u) -eq 0 ]] || fail "chromium missing; install it (apt-get install chromium) or run as root"
command -v apt-get >/dev/null || fail "chromium missing and there is no apt-get to install it"
mkdir -p "$WORK"
start=$(date +%s)
step "installing chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >"$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log" >&2; fail "apt-get update (log: $WORK/apt.log)"; }
# --no-install-recommends: the recommends are desktop integration (upower, notification
# daemons, ...) a headless renderer never uses. Fonts are pulled in as dependencies.
apt-get install -y -qq --no-install-recommends chromium >>"$WORK/apt.log" 2>&1 \
  || { tail -20 "$WORK/apt.log" >&2; fail "apt-get install chromium (log: $WORK/apt.log)"; }

browser=$(find_browser)
[[ -n "$browser" ]] || fail "apt-get installed chromium but it is not on PATH"
step "installed $("$browser" --version 2>/dev/null || echo chromium) in $(($(date +%s) - start)) s"
echo "$browser"
