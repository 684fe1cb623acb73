#!/usr/bin/env bash
# crossrole's release artifacts, into dist/release/ (ignored by git; nothing here is committed):
#   npm/crossrole-<version>.tgz          the CLI and controller as an npm package of compiled
#                                        JavaScript: `npm install <tarball>` where only Node 24 is
#                                        (scripts/release-package.ts)
#   image/crossrole-<version>.tar        the container image (scripts/build-image.sh), for
#                                        `podman load -i` / `docker load -i`, then a push
#   chart/crossrole-<version>.tgz        the Helm chart, its image set to $CROSSROLE_IMAGE
#                                        (default localhost/crossrole, the image tarball's name)
# `release.sh package` builds the npm package only. Needs what scripts/ensure-deps.sh installs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
step() { printf '[release] %s\n' "$*" >&2; }

version=$(node -p 'require("./package.json").version')
tarball=$(node scripts/release-package.ts)
step "npm package: $tarball"
[[ "${1:-all}" == "package" ]] && exit 0

mkdir -p dist/release/image dist/release/chart
image=$(bash scripts/build-image.sh | tail -1)
rm -f "dist/release/image/crossrole-$version.tar"
podman save --quiet -o "dist/release/image/crossrole-$version.tar" "$image"
step "image: dist/release/image/crossrole-$version.tar ($image)"

repository="${CROSSROLE_IMAGE:-localhost/crossrole}"
chart=dist/release/stage-chart/crossrole
rm -rf dist/release/stage-chart && mkdir -p dist/release/stage-chart && cp -r helm/crossrole "$chart"
# The packaged chart names the released image: repository as given, tag the version.
sed -i "s|^  repository: crossrole$|  repository: $repository|; s|^  tag: \"\"$|  tag: \"$version\"|" "$chart/values.yaml"
grep -q "repository: $repository" "$chart/values.yaml" || { step "FAILED: could not set the chart's image"; exit 1; }
"${CROSSROLE_CACHE:-$HOME/.cache/crossrole}/bin/helm" package "$chart" --destination dist/release/chart >/dev/null
step "chart: dist/release/chart/crossrole-$version.tgz (image $repository:$version)"
