#!/usr/bin/env bash
# Makes sure of the toolchain the project needs, and prints the PATH to use:
#   - Node.js >= 22 (installs the npm `node` package, major 24, into the cache when the machine's is older);
#   - the Pulumi CLI and its Node.js language host (built from Go modules at a pinned version when absent);
#   - the YAML, Python and Go language hosts `pulumi-language-yaml`, `pulumi-language-python` (with
#     `pulumi-language-python-exec` beside it) and `pulumi-language-go` (built from Go modules when
#     absent; one that cannot be built is skipped with a warning);
#   - `pulumi-hosting-codegen` (scripts/codegen: schema check and SDK generation), rebuilt when its
#     sources change;
#   - `pulumi-resource-pulumi-nodejs` (the dynamic-provider launcher shipped in @pulumi/pulumi), on PATH
#     once `npm ci` has run.
# Built binaries go to ~/.cache/pulumi-hosting/pulumi-<version>/bin (PULUMI_HOSTING_CACHE moves the
# cache), each build's output to ../../build/<name>.log there. Python and Go programs need more than a
# language host: see scripts/languages.sh.
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

# --- Pulumi CLI, language hosts, codegen -----------------------------------------------------
# The CLI comes from pkg/v3 at PULUMI_VERSION. The language hosts of the Pulumi repository are modules
# of their own today, and the Go module proxy here serves none of their pseudo-versions; each still
# existed as a package of sdk/v3 up to a release, which speaks the LanguageRuntime protocol the CLI
# needs (the engine falls back for the newer calls). See docs/DECISIONS.md.
LANGHOST_SDK_VERSION="v3.68.0"  # Node.js: sdk/v3/nodejs/cmd/pulumi-language-nodejs
PYTHON_HOST_SDK_VERSION="v3.79.0" # the last sdk/v3 with python/cmd/pulumi-language-python
# That host takes the program's virtualenv as a flag (-virtualenv), which today's CLI no longer passes
# (runtime options now travel in the requests), so it runs under scripts/pulumi-language-python,
# which reads runtime.options.virtualenv from the program's Pulumi.yaml and passes it on.
GO_HOST_SDK_VERSION="v3.66.0"     # the last sdk/v3 with go/pulumi-language-go
YAML_VERSION="v1.25.0"            # github.com/pulumi/pulumi-yaml: the newest the proxy serves here
CLIPBOARD_REPLACE="replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e"

go_build_module() { # work-dir module-requirements package output ldflags [go.mod-lines]
  local work="$1" requires="$2" pkg="$3" out="$4" ldflags="$5" extra="${6:-}"
  mkdir -p "$work"
  printf 'module pulumihostingtoolchain\n\ngo 1.21\n\nrequire (\n%s\n)\n%s\n' "$requires" "$extra" >"$work/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$pkg" >"$work/tools.go"
  (cd "$work" && go mod tidy -e && same_versions "$requires" &&
    go build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" -o "$out.tmp" "$pkg" &&
    mv -f "$out.tmp" "$out")
}
same_versions() { # requirements: `go mod tidy -e` picks another version when the one asked for is refused
  local module version got
  while read -r module version; do
    [ -n "$module" ] || continue
    got="$(go list -m -f '{{.Version}}' "$module")"
    [ "$got" = "$version" ] || { echo "error: $module $version is not available (the module proxy offers $got)"; return 1; }
  done <<<"$1"
}
sdk_version_flag() { printf -- '-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=%s' "$1"; }

build_cli() {
  go_build_module "$CACHE/build/cli-$PULUMI_VERSION" \
    "	github.com/pulumi/pulumi/pkg/v3 $PULUMI_VERSION
	github.com/pulumi/pulumi/sdk/v3 $PULUMI_VERSION" \
    github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$bin/pulumi" "$(sdk_version_flag "$PULUMI_VERSION")" \
    "$CLIPBOARD_REPLACE"
}
build_nodejs_host() {
  go_build_module "$CACHE/build/langhost-$LANGHOST_SDK_VERSION" \
    "	github.com/pulumi/pulumi/sdk/v3 $LANGHOST_SDK_VERSION" \
    github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs "$bin/pulumi-language-nodejs" \
    "$(sdk_version_flag "$LANGHOST_SDK_VERSION")"
}
build_python_host() {
  local work="$CACHE/build/python-host-$PYTHON_HOST_SDK_VERSION"
  go_build_module "$work" "	github.com/pulumi/pulumi/sdk/v3 $PYTHON_HOST_SDK_VERSION" \
    github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python "$tools_bin/pulumi-language-python" \
    "$(sdk_version_flag "$PYTHON_HOST_SDK_VERSION")" || return 1
  # The host runs programs through this script, which it looks for beside its own binary.
  local sdk
  sdk="$(cd "$work" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)" &&
    install -m 755 "$sdk/python/cmd/pulumi-language-python-exec" "$tools_bin/pulumi-language-python-exec"
}
# The built host runs under scripts/pulumi-language-python, which passes the program's virtualenv:
# the host becomes pulumi-language-python-host and the wrapper takes its name, beside the CLI
# (where the CLI looks for it first). The key stays the host's version, so a checkout whose
# bootstrap predates the wrapper finds the host current and leaves it be.
wrap_python_host() {
  local host="$tools_bin/pulumi-language-python" wrapper="$ROOT/scripts/pulumi-language-python"
  [ -x "$host" ] || return 0
  cmp -s "$host" "$wrapper" && [ -x "$tools_bin/pulumi-language-python-host" ] && return 0
  if [ "$(head -c 2 "$host")" != "#!" ]; then mv -f "$host" "$tools_bin/pulumi-language-python-host"; fi
  [ -x "$tools_bin/pulumi-language-python-host" ] && install -m 755 "$wrapper" "$host"
}
build_go_host() {
  go_build_module "$CACHE/build/go-host-$GO_HOST_SDK_VERSION" "	github.com/pulumi/pulumi/sdk/v3 $GO_HOST_SDK_VERSION" \
    github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go "$tools_bin/pulumi-language-go" \
    "$(sdk_version_flag "$GO_HOST_SDK_VERSION")"
}
build_yaml_host() {
  go_build_module "$CACHE/build/yaml-host-$YAML_VERSION" "	github.com/pulumi/pulumi-yaml $YAML_VERSION" \
    github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml "$tools_bin/pulumi-language-yaml" \
    "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=${YAML_VERSION#v}"
}
# Each build of the codegen stays in $CACHE/codegen/<key> (the newest four), and the bin folder links
# to the one of the sources at hand: checkouts with different sources switch without rebuilding.
sha256() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi; }
codegen_key() { # the codegen's Pulumi version and a hash of its sources
  local pkg
  pkg="$(sed -n 's|^[[:space:]]*github.com/pulumi/pulumi/pkg/v3 \(v[^ ]*\).*|\1|p' "$ROOT/scripts/codegen/go.mod")"
  printf '%s-%s' "$pkg" "$(cat "$ROOT"/scripts/codegen/*.go "$ROOT"/scripts/codegen/go.mod "$ROOT"/scripts/codegen/go.sum | sha256 | cut -c1-16)"
}
CODEGEN_KEY="$(codegen_key)"
CODEGEN_BIN="$CACHE/codegen/$CODEGEN_KEY/pulumi-hosting-codegen"
build_codegen() { # built from a copy, so that the build never touches the checkout
  local work="$CACHE/build/codegen"
  rm -rf "$work" && mkdir -p "$work" "$(dirname "$CODEGEN_BIN")" &&
    cp "$ROOT"/scripts/codegen/*.go "$ROOT"/scripts/codegen/go.mod "$ROOT"/scripts/codegen/go.sum "$work/" &&
    (cd "$work" && go build -trimpath -o "$CODEGEN_BIN.tmp" . && mv -f "$CODEGEN_BIN.tmp" "$CODEGEN_BIN") &&
    link_codegen || return 1
  # shellcheck disable=SC2012 # names are keys: no spaces
  ls -1t "$CACHE/codegen" | tail -n +5 | while read -r old; do rm -rf "${CACHE:?}/codegen/$old"; done
}
link_codegen() { ln -sfn "$CODEGEN_BIN" "$tools_bin/pulumi-hosting-codegen"; }

# An optional tool is rebuilt when its key (its version) differs from the one recorded beside it.
is_current() { [ -x "$tools_bin/$1" ] && [ "$(cat "$tools_bin/.$1.key" 2>/dev/null)" = "$2" ]; }
on_path_elsewhere() { # a copy outside the cache (a regular Pulumi install) is used as it is
  local found
  found="$(command -v "$1" 2>/dev/null)" || return 1
  [ "$(dirname "$found")" != "$tools_bin" ]
}

# build NAME KEY FUNCTION: one line on stderr, the build's output in a log; the key is recorded on success.
build() {
  local name="$1" key="$2" fn="$3" logf="$CACHE/build/$1.log" t0=$SECONDS
  log "building $name $key from Go modules (log: $logf)"
  if { "$fn"; } >"$logf" 2>&1; then
    printf '%s\n' "$key" >"$tools_bin/.$name.key"
    printf 'built in %ss\n' "$((SECONDS - t0))" >>"$logf"
  else
    return 1
  fi
}
first_error() {
  grep -m1 -iE 'error|cannot|undefined|forbidden|not found|refused|no such' "$1" | sed 's/^[[:space:]]*//' || tail -n1 "$1"
}
# A failed build is not tried again for a day (or until its .failed file goes): its warning is repeated.
failed_recently() {
  local f="$tools_bin/.$1.failed"
  [ -f "$f" ] && [ "$(head -n1 "$f")" = "$2" ] && [ -z "$(find "$f" -mmin +1440)" ]
}
settled() { on_path_elsewhere "$1" || is_current "$1" "$2" || failed_recently "$1" "$2"; }
# optional NAME KEY FUNCTION: builds when missing or stale; a failure is a one-line warning.
optional() {
  local name="$1" key="$2" fn="$3" msg
  on_path_elsewhere "$name" && return 0
  is_current "$name" "$key" && return 0
  if failed_recently "$name" "$key"; then
    log "warning: $(tail -n1 "$tools_bin/.$name.failed")"
  elif ! command -v go >/dev/null; then
    log "warning: $name not built (no Go toolchain); skipped"
  elif build "$name" "$key" "$fn"; then
    rm -f "$tools_bin/.$name.failed"
  else
    msg="$name $key could not be built, skipped: $(first_error "$CACHE/build/$name.log") (see $CACHE/build/$name.log; tried again in a day, or when $tools_bin/.$name.failed is removed)"
    log "warning: $msg"
    printf '%s\n%s\n' "$key" "$msg" >"$tools_bin/.$name.failed"
  fi
}

bin="$CACHE/pulumi-$PULUMI_VERSION/bin" # the CLI built here, with everything else beside it
cli_from_cache=1
if command -v pulumi >/dev/null && command -v pulumi-language-nodejs >/dev/null &&
  [ "$(dirname "$(command -v pulumi)")" != "$bin" ]; then
  cli_from_cache=0
fi
if [ "$cli_from_cache" = 1 ]; then
  tools_bin="$bin"
else
  # Beside a CLI installed the usual way (which ships the language hosts), a folder without `pulumi`,
  # so that nothing here shadows it.
  tools_bin="$CACHE/tools-$PULUMI_VERSION/bin"
fi

# Two lanes of builds that run side by side: the CLI and then the codegen (which reuses the CLI's
# compiled packages), and the language hosts. Only the CLI and the Node.js host are required.
cli_lane() {
  if [ "$cli_from_cache" = 1 ] && [ ! -x "$bin/pulumi" ]; then
    command -v go >/dev/null || return 1
    build pulumi "$PULUMI_VERSION" build_cli || return 1
  fi
  if [ -x "$CODEGEN_BIN" ] && ! on_path_elsewhere pulumi-hosting-codegen; then
    link_codegen && printf '%s\n' "$CODEGEN_KEY" >"$tools_bin/.pulumi-hosting-codegen.key"
  else
    optional pulumi-hosting-codegen "$CODEGEN_KEY" build_codegen
  fi
}
hosts_lane() {
  if [ "$cli_from_cache" = 1 ] && [ ! -x "$bin/pulumi-language-nodejs" ]; then
    command -v go >/dev/null || return 1
    build pulumi-language-nodejs "$LANGHOST_SDK_VERSION" build_nodejs_host || return 1
  fi
  optional pulumi-language-python "$PYTHON_HOST_SDK_VERSION" build_python_host
  optional pulumi-language-go "$GO_HOST_SDK_VERSION" build_go_host
  optional pulumi-language-yaml "$YAML_VERSION" build_yaml_host
}

OPTIONAL=(
  "pulumi-hosting-codegen $CODEGEN_KEY"
  "pulumi-language-python $PYTHON_HOST_SDK_VERSION"
  "pulumi-language-go $GO_HOST_SDK_VERSION"
  "pulumi-language-yaml $YAML_VERSION"
)
everything_current() {
  [ "$cli_from_cache" = 0 ] || { [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ]; } || return 1
  local entry
  for entry in "${OPTIONAL[@]}"; do
    # shellcheck disable=SC2086 # "name key"
    settled $entry || return 1
  done
}

if ! everything_current; then
  mkdir -p "$tools_bin" "$CACHE/build"
  export GOFLAGS=-mod=mod GOSUMDB="${GOSUMDB:-off}" GOTOOLCHAIN=local
  # One bootstrap builds at a time (worktrees share the cache); the others wait, then find it built.
  if command -v flock >/dev/null; then
    exec 9>"$CACHE/build/.lock"
    flock 9
  fi
  cli_status=0 hosts_status=0
  cli_lane &
  cli_pid=$!
  hosts_lane &
  hosts_pid=$!
  wait "$cli_pid" || cli_status=$?
  wait "$hosts_pid" || hosts_status=$?
  if [ "$cli_status" != 0 ] || [ "$hosts_status" != 0 ]; then
    for name in pulumi pulumi-language-nodejs; do
      if [ ! -x "$bin/$name" ] && [ -f "$CACHE/build/$name.log" ]; then
        log "$name: the end of $CACHE/build/$name.log:"
        tail -n 15 "$CACHE/build/$name.log" >&2
      fi
    done
    log "no Pulumi CLI on PATH and it could not be built here (Go missing or the module proxy unreachable)."
    log "Install it the usual way (https://www.pulumi.com/docs/iac/download-install/) and run again."
    exit 1
  fi
  if command -v flock >/dev/null; then exec 9>&-; fi
else
  for entry in "${OPTIONAL[@]}"; do
    # shellcheck disable=SC2086 # "name key"
    if ! on_path_elsewhere ${entry% *} && failed_recently $entry; then
      log "warning: $(tail -n1 "$tools_bin/.${entry% *}.failed")"
    fi
  done
fi
case ":$PATH:" in
*":$tools_bin:"*) ;; # already there (a second eval in the same shell)
*) [ -d "$tools_bin" ] && path_prefix="$tools_bin:$path_prefix" ;;
esac
on_path_elsewhere pulumi-language-python || wrap_python_host

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
