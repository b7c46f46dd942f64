#!/usr/bin/env bash
# Makes sure of the toolchain the project needs, and prints the PATH to use:
#   - Node.js >= 22 (installs the npm `node` package, major 24, into the cache when the machine's is older);
#   - the Pulumi CLI and its Node.js language host (built from Go modules at a pinned version when absent);
#   - `pulumi-resource-pulumi-nodejs` (the dynamic-provider launcher shipped in @pulumi/pulumi), on PATH
#     once `npm ci` has run.
# Usage: eval "$(bash scripts/bootstrap.sh)"   (idempotent; a second run is instant)
set -euo pipefail

PULUMI_VERSION="${PULUMI_CLI_VERSION:-v3.259.0}" # newest version the Go module proxy serves here
NODE_MAJOR=24
CACHE="${PULUMI_HOSTING_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf 'bootstrap: %s\n' "$*" >&2; }

path_prefix=""

# --- Node.js ---------------------------------------------------------------------------------
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node_bin=""
if command -v node >/dev/null && [ "$(node_major node)" -ge 22 ]; then
  node_bin="$(command -v node)"
else
  node_dir="$CACHE/node-$NODE_MAJOR"
  if [ ! -x "$node_dir/node_modules/node/bin/node" ] || [ "$(node_major "$node_dir/node_modules/node/bin/node")" -lt 22 ]; then
    command -v npm >/dev/null || { log "neither Node.js >= 22 nor npm found: install Node.js 22 or later"; exit 1; }
    log "installing Node.js $NODE_MAJOR from the npm registry into $node_dir"
    mkdir -p "$node_dir"
    (cd "$node_dir" && npm install --no-save --no-package-lock --loglevel=error "node@$NODE_MAJOR" >&2)
  fi
  # The `node` package ships the binary under node_modules/node/bin; npm itself stays the machine's.
  path_prefix="$node_dir/node_modules/node/bin:$path_prefix"
  node_bin="$node_dir/node_modules/node/bin/node"
fi

# --- Pulumi CLI and Node.js language host ----------------------------------------------------
# The CLI comes from pkg/v3 at PULUMI_VERSION. The Node.js language host is a module of its own
# without version tags, and the Go module proxy here serves none of its pseudo-versions; its last
# release inside sdk/v3 (v3.68.0) speaks the same LanguageRuntime protocol (the engine falls back for
# the newer calls) and runs the current @pulumi/pulumi unchanged. See docs/DECISIONS.md.
LANGHOST_SDK_VERSION="v3.68.0"

go_build_module() { # work-dir module-requirements package output version
  local work="$1" requires="$2" pkg="$3" out="$4" version="$5" replace="${6:-}"
  mkdir -p "$work"
  printf 'module pulumihostingtoolchain\n\ngo 1.21\n\nrequire (\n%s\n)\n%s\n' "$requires" "$replace" >"$work/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$pkg" >"$work/tools.go"
  (
    cd "$work"
    go mod tidy -e >&2
    go build -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" -o "$out" "$pkg" >&2
  )
}

build_pulumi() {
  local bin="$1"
  command -v go >/dev/null || return 1
  export GOFLAGS=-mod=mod GOSUMDB="${GOSUMDB:-off}" GOTOOLCHAIN=local
  mkdir -p "$bin"
  if [ ! -x "$bin/pulumi" ]; then
    log "building the Pulumi CLI $PULUMI_VERSION from Go modules (first run only, about 5 minutes)"
    go_build_module "$CACHE/build/cli-$PULUMI_VERSION" \
      "	github.com/pulumi/pulumi/pkg/v3 $PULUMI_VERSION
	github.com/pulumi/pulumi/sdk/v3 $PULUMI_VERSION" \
      github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$bin/pulumi" "$PULUMI_VERSION" \
      "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e" ||
      return 1
  fi
  if [ ! -x "$bin/pulumi-language-nodejs" ]; then
    log "building the Node.js language host (sdk $LANGHOST_SDK_VERSION) from Go modules"
    go_build_module "$CACHE/build/langhost-$LANGHOST_SDK_VERSION" \
      "	github.com/pulumi/pulumi/sdk/v3 $LANGHOST_SDK_VERSION" \
      github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs "$bin/pulumi-language-nodejs" \
      "$LANGHOST_SDK_VERSION" || return 1
  fi
}

if command -v pulumi >/dev/null && command -v pulumi-language-nodejs >/dev/null; then
  :
else
  bin="$CACHE/pulumi-$PULUMI_VERSION/bin"
  if [ ! -x "$bin/pulumi" ] || [ ! -x "$bin/pulumi-language-nodejs" ]; then
    if ! build_pulumi "$bin"; then
      log "no Pulumi CLI on PATH and it could not be built here (Go missing or the module proxy unreachable)."
      log "Install it the usual way (https://www.pulumi.com/docs/iac/download-install/) and run again."
      exit 1
    fi
  fi
  path_prefix="$bin:$path_prefix"
fi

# --- Dynamic-provider launcher ---------------------------------------------------------------
# The engine starts dynamic providers as `pulumi-resource-pulumi-nodejs`, a script at the root of
# the @pulumi/pulumi npm package that resolves the provider host from the program's directory. The
# CLI looks for it beside its own binary first (where an official install bundles it); found only
# on PATH, every run prints "using pulumi-resource-pulumi-nodejs from $PATH". So a CLI built here
# gets a copy beside it; a CLI installed without one gets it on PATH as a fallback. Needs `npm ci`
# to have run once.
launcher_src="$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
pulumi_dir="$(dirname "$(PATH="$path_prefix$PATH" command -v pulumi)")"
install_launcher() { # dir
  mkdir -p "$1"
  rm -f "$1/pulumi-resource-pulumi-nodejs"
  cp "$launcher_src" "$1/pulumi-resource-pulumi-nodejs"
  chmod +x "$1/pulumi-resource-pulumi-nodejs"
}
if [ -f "$launcher_src" ] && [ "$pulumi_dir" = "$CACHE/pulumi-$PULUMI_VERSION/bin" ]; then
  install_launcher "$pulumi_dir" # refreshed each run: it must match the installed @pulumi/pulumi
elif [ -f "$launcher_src" ] && [ ! -x "$pulumi_dir/pulumi-resource-pulumi-nodejs" ]; then
  install_launcher "$CACHE/launcher"
  path_prefix="$CACHE/launcher:$path_prefix"
fi

log "node $("$node_bin" --version), pulumi $(PATH="$path_prefix$PATH" pulumi version 2>/dev/null || echo '?')"
printf 'export PATH=%q\n' "$path_prefix$PATH"
