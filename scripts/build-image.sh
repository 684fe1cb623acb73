#!/usr/bin/env bash
# Builds crossrole's container image here, offline, with podman: localhost/crossrole:<version>
# (version from package.json). Idempotent and cached under ${CROSSROLE_CACHE:-~/.cache/crossrole}/image:
#
#   1. installs podman, runc and mmdebstrap with apt-get when missing (needs root);
#   2. assembles a base root filesystem — a minimal Debian (mmdebstrap) with ca-certificates, plus
#      the pinned Node 24 binary from the npm `node` package in node_modules and a pinned npm —
#      and imports it as localhost/crossrole-base:<hash>; the hash covers every input, so it is
#      rebuilt only when one changes (no container registry is reachable here to pull a public
#      Node image from);
#   3. podman build --build-arg BASE=localhost/crossrole-base:<hash> (layer-cached).
#
# Prints the image reference on stdout (last line); progress, times and the size on stderr.
# Anything that runs a container uses $CACHE/image/containers.conf (see test/harness/image.ts):
# on these machines crun cannot set rlimits or use hybrid cgroups, runc with no default ulimits
# works.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CACHE="${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"
WORK="$CACHE/image"
mkdir -p "$WORK"

# Pinned inputs of the base (the Node binary is pinned by package-lock.json).
DEBIAN_SUITE=bookworm
NPM_VERSION=11.19.1

start=$(date +%s)
step() { printf '[build-image] %s\n' "$*" >&2; }
fail() { step "FAILED: $*"; exit 1; }

# ---- 1. tools
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
if ((${#missing[@]} > 0)); then
  [[ $(id -u) -eq 0 ]] || fail "${missing[*]} missing; install them (apt-get install podman runc mmdebstrap) or run as root"
  command -v apt-get >/dev/null || fail "${missing[*]} missing and there is no apt-get to install them"
  step "installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >"$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log" >&2; fail "apt-get update (log: $WORK/apt.log)"; }
  apt-get install -y -qq podman runc mmdebstrap >>"$WORK/apt.log" 2>&1 \
    || { tail -20 "$WORK/apt.log" >&2; fail "apt-get install podman runc mmdebstrap (log: $WORK/apt.log)"; }
fi

export CONTAINERS_CONF="$WORK/containers.conf"
cat >"$CONTAINERS_CONF.$$" <<'CONF'
# Written by scripts/build-image.sh. crun fails here (setrlimit RLIMIT_NOFILE: Operation not
# permitted; cgroups in hybrid mode not supported): runc, with no default ulimits, works.
[containers]
default_ulimits = []

[engine]
runtime = "runc"
CONF
mv "$CONTAINERS_CONF.$$" "$CONTAINERS_CONF"

# ---- 2. the base: Debian + Node 24 + npm
node_bin=$(readlink -f node_modules/.bin/node 2>/dev/null || true)
[[ -x "$node_bin" ]] || fail "node_modules/.bin/node is missing; run scripts/ensure-deps.sh first (it installs Node 24 from npm)"
node_version=$("$node_bin" --version)
[[ "$node_version" == v24.* ]] || fail "node_modules/.bin/node is $node_version, expected Node 24"
version=$("$node_bin" -p 'require("./package.json").version')

npm_tgz="$WORK/npm-$NPM_VERSION.tgz"
if [[ ! -s "$npm_tgz" ]]; then
  step "fetching npm $NPM_VERSION (for the base's npm, as public Node images have)"
  (cd "$WORK" && npm pack --silent "npm@$NPM_VERSION" >/dev/null 2>"$WORK/npm-pack.log") \
    || { cat "$WORK/npm-pack.log" >&2; fail "npm pack npm@$NPM_VERSION"; }
  [[ -s "$npm_tgz" ]] || fail "npm pack npm@$NPM_VERSION did not write $npm_tgz"
fi

# Writes the base's root filesystem as a tar to $1. Its own text is part of the base's hash.
build_base() {
  local tar=$1 rootfs="$WORK/rootfs.$$"
  rm -rf "$rootfs"
  # shellcheck disable=SC2064 # $rootfs is expanded now, on purpose
  trap "rm -rf '$rootfs'" EXIT
  # essential: dpkg's Essential set (sh, coreutils, ...) and no apt; libstdc++ for node.
  # The merged-usr hook instead of the usrmerge package (which would pull in perl).
  mmdebstrap --quiet --variant=essential --format=directory \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --include=ca-certificates,libstdc++6 \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    "$DEBIAN_SUITE" "$rootfs" \
    "deb http://deb.debian.org/debian $DEBIAN_SUITE main" \
    "deb http://deb.debian.org/debian $DEBIAN_SUITE-updates main" \
    "deb http://deb.debian.org/debian-security $DEBIAN_SUITE-security main" \
    >"$WORK/mmdebstrap.log" 2>&1 || { tail -30 "$WORK/mmdebstrap.log" >&2; return 1; }
  install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$npm_tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1 --no-same-owner
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  rm -rf "$rootfs"/var/cache/* "$rootfs"/var/log/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/tmp/*
  tar --numeric-owner -C "$rootfs" -cf "$tar.$$" .
  mv "$tar.$$" "$tar"
  rm -rf "$rootfs"
  trap - EXIT
}
import_changes=(
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  --change "ENV NODE_VERSION=${node_version#v}"
  --change 'CMD ["node"]'
)

base_hash=$(
  {
    declare -f build_base
    printf '%s\n' "$DEBIAN_SUITE" "$NPM_VERSION" "${import_changes[@]}"
    sha256sum "$node_bin" "$npm_tgz" | cut -d' ' -f1
  } | sha256sum | cut -c1-16
)
base="localhost/crossrole-base:$base_hash"
base_tar="$WORK/base-$base_hash.tar"
if podman image exists "$base"; then
  step "base $base cached"
else
  if [[ ! -s "$base_tar" ]]; then
    step "assembling the base root filesystem (Debian $DEBIAN_SUITE + Node $node_version + npm $NPM_VERSION)"
    t0=$(date +%s)
    build_base "$base_tar" || fail "mmdebstrap $DEBIAN_SUITE (log: $WORK/mmdebstrap.log)"
    step "base root filesystem assembled in $(($(date +%s) - t0)) s"
  fi
  step "importing $base"
  podman import --quiet "${import_changes[@]}" "$base_tar" "$base" >/dev/null
  # Only the newest base is kept (an older one still under a built image stays until that goes).
  find "$WORK" -maxdepth 1 -name 'base-*.tar' ! -name "base-$base_hash.tar" -delete
  for old in $(podman images --format '{{.Repository}}:{{.Tag}}' localhost/crossrole-base); do
    [[ "$old" == "$base" ]] || podman rmi "$old" >/dev/null 2>&1 || true
  done
fi

# ---- 3. the image
# The deps stage's `npm install` reaches the registry as this machine's npm does: its registry and,
# when it has one, its CA file (these machines reach the registry through a TLS-inspecting egress
# proxy). Mounted for the build only (npm's global npmrc in the base): nothing of it is in the image.
npm_conf=$(mktemp -d "$WORK/npm-build.XXXXXX")
trap 'rm -rf "$npm_conf"' EXIT
chmod 0755 "$npm_conf"
printf 'registry=%s\n' "$(npm config get registry 2>/dev/null)" >"$npm_conf/npmrc"
npm_cafile=$(npm config get cafile 2>/dev/null || true)
if [[ -z "$npm_cafile" || "$npm_cafile" == null || "$npm_cafile" == undefined ]]; then
  npm_cafile=${NODE_EXTRA_CA_CERTS:-}
fi
if [[ -n "$npm_cafile" && -s "$npm_cafile" ]]; then
  cp "$npm_cafile" "$npm_conf/ca.crt"
  echo "cafile=/run/crossrole-build/ca.crt" >>"$npm_conf/npmrc"
fi
build_mounts=(
  --volume "$npm_conf/npmrc:/usr/local/etc/npmrc:ro"
  --volume "$npm_conf:/run/crossrole-build:ro"
)

image="localhost/crossrole:$version"
step "building $image on $base"
t0=$(date +%s)
# chroot isolation: the deps stage's RUN needs no OCI runtime (the final stage has no RUN step).
podman build --isolation chroot "${build_mounts[@]}" --build-arg "BASE=$base" -f Containerfile -t "$image" . \
  >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log" >&2; fail "podman build (log: $WORK/build.log)"; }
size=$(podman image inspect --format '{{.Size}}' "$image")
step "built $image in $(($(date +%s) - t0)) s: $((size / 1000000)) MB ($size bytes); total $(($(date +%s) - start)) s"
echo "$image"
