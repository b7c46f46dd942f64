#!/usr/bin/env bash
# Writes pulumi-resource-hosting-v<version>.tar.gz: the native plugin as a self-contained folder for
# the plugin cache, installed without a registry by
#   pulumi plugin install resource hosting <version> --file pulumi-resource-hosting-v<version>.tar.gz
#
# Why an archive of its own: the engine runs the executable `pulumi-resource-hosting` at the root of
# a cached plugin's folder, and the npm tarball has none there (its files sit under `package/`, its
# dependencies are not in it). The archive holds that executable (a shell wrapper that runs the
# package's dist/provider/plugin/cli.js with the `node` on PATH, 22 or later) and a node_modules with
# the package, its dependencies and its peer @pulumi/pulumi, as `npm install` lays them out.
#
# usage: scripts/plugin-archive.sh [OUT.tar.gz]   (builds first; needs npm and network or npm cache)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(node -p "require('$root/package.json').version")
out=${1:-$root/pulumi-resource-hosting-v$version.tar.gz}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

(cd "$root" && npm run --silent build >&2)
tarball=$(cd "$root" && npm pack --ignore-scripts --silent --pack-destination "$stage")

cd "$stage"
printf '{"name":"pulumi-resource-hosting","version":"%s","private":true}\n' "$version" >package.json
npm install --omit=dev --no-audit --no-fund --loglevel=error "./$tarball" >&2
rm -f "$tarball" package-lock.json

cat >pulumi-resource-hosting <<'WRAPPER'
#!/bin/sh
# The hosting resource provider plugin; its first stdout line is the port it serves on.
exec node "$(dirname "$0")/node_modules/pulumi-hosting/dist/provider/plugin/cli.js" "$@"
WRAPPER
chmod +x pulumi-resource-hosting

tar -czf "$out" -C "$stage" .
echo "$out"
