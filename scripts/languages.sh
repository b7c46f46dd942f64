#!/usr/bin/env bash
# What Python and Go Pulumi programs need beyond the language hosts scripts/bootstrap.sh builds,
# prepared once in the cache, and the exports to use them:
#   - python: a virtualenv with `pulumi` from PyPI at PYTHON_PULUMI_VERSION and what the generated SDK
#     (sdk/python) requires beside it (PYTHON_SDK_REQUIREMENTS)
#     (~/.cache/pulumi-hosting/python-pulumi-<version>/venv), which programs link as the virtualenv
#     their Pulumi.yaml names (the host bootstrap.sh installs reads runtime.options.virtualenv), and
#     which commands of the tests run first on PATH. Exports PATH, VIRTUAL_ENV, PULUMI_HOSTING_PYTHON_VENV.
#   - go: github.com/pulumi/pulumi/sdk/v3 at GO_SDK_VERSION downloaded and compiled once (the Go host
#     compiles the program on every run; this way the first run does not compile the SDK), and a
#     program template (~/.cache/pulumi-hosting/go-pulumi-<version>/template: go.mod, a complete
#     go.sum, main.go) to copy, so a program builds without the checksum database. Exports
#     PULUMI_HOSTING_GO_SDK_VERSION and PULUMI_HOSTING_GO_TEMPLATE.
# Usage, after the bootstrap:  eval "$(bash scripts/languages.sh [python] [go])"  (both by default;
# idempotent, instant once prepared). Exits 1, printing no exports, when a language cannot be prepared.
# With --json first, prints the same variables as one JSON object (for a test's global setup).
set -euo pipefail

PYTHON_PULUMI_VERSION="3.272.0" # the newest `pulumi` on PyPI; runs with CLI v3.259.0 and the old host
PYTHON_SDK_REQUIREMENTS=("parver>=0.2.1" "semver>=2.8.1") # sdk/python/setup.py's install_requires
# What building sdk/python needs (setup.py with no pyproject.toml): in the virtualenv, the tests install
# the SDK with --no-build-isolation instead of pip fetching them into a new build environment each time.
PYTHON_BUILD_REQUIREMENTS=("setuptools>=65" "wheel")
GO_SDK_VERSION="v3.259.0"       # the CLI's version: already in the module cache, and what codegen targets
CACHE="${PULUMI_HOSTING_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-hosting}"
log() { printf 'languages: %s\n' "$*" >&2; }

json=0
if [ "${1:-}" = --json ]; then
  json=1
  shift
fi
languages=("$@")
[ ${#languages[@]} -gt 0 ] || languages=(python go)
exports=()

prepare_python() {
  local python="${PYTHON:-python3}" dir="$CACHE/python-pulumi-$PYTHON_PULUMI_VERSION" key
  command -v "$python" >/dev/null || { log "no $python on PATH: install Python 3.10 or later"; return 1; }
  if ! "$python" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    log "$python is $("$python" --version 2>&1), without venv or older than 3.10 (pulumi $PYTHON_PULUMI_VERSION needs 3.10)"
    return 1
  fi
  # The virtualenv is tied to the interpreter it was made with: a different one makes a new virtualenv.
  key="pulumi==$PYTHON_PULUMI_VERSION ${PYTHON_SDK_REQUIREMENTS[*]} ${PYTHON_BUILD_REQUIREMENTS[*]} $("$python" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)')"
  if [ "$(cat "$dir/venv/.pulumi-hosting.key" 2>/dev/null)" != "$key" ]; then
    log "creating a virtualenv with pulumi==$PYTHON_PULUMI_VERSION from PyPI in $dir/venv"
    rm -rf "$dir/venv"
    mkdir -p "$dir"
    "$python" -m venv "$dir/venv" >&2 &&
      "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "pulumi==$PYTHON_PULUMI_VERSION" "${PYTHON_SDK_REQUIREMENTS[@]}" "${PYTHON_BUILD_REQUIREMENTS[@]}" >&2 || {
      log "could not install pulumi==$PYTHON_PULUMI_VERSION into $dir/venv"
      return 1
    }
    printf '%s\n' "$key" >"$dir/venv/.pulumi-hosting.key"
  fi
  exports+=("PATH=$dir/venv/bin:$PATH" "VIRTUAL_ENV=$dir/venv" "PULUMI_HOSTING_PYTHON_VENV=$dir/venv")
}

prepare_go() {
  local dir="$CACHE/go-pulumi-$GO_SDK_VERSION" template
  template="$dir/template"
  command -v go >/dev/null || { log "no go on PATH"; return 1; }
  # Compiled with -trimpath, as the language tests build programs: the build cache's entries then do
  # not depend on the program's folder, so each program reuses them (docs/DECISIONS.md).
  if [ ! -f "$template/.done-trimpath" ]; then
    log "downloading and compiling github.com/pulumi/pulumi/sdk/v3 $GO_SDK_VERSION (first run only)"
    rm -rf "$template"
    mkdir -p "$template"
    cat >"$template/main.go" <<'EOF'
package main

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		ctx.Export("greeting", pulumi.String("hello"))
		return nil
	})
}
EOF
    printf 'module pulumi-program\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 %s\n' "$GO_SDK_VERSION" >"$template/go.mod"
    (
      cd "$template" &&
        export GOFLAGS="-mod=mod -trimpath" GOSUMDB="${GOSUMDB:-off}" GOTOOLCHAIN=local &&
        go mod tidy && go build -o /dev/null .
    ) >"$dir/build.log" 2>&1 || {
      log "could not prepare github.com/pulumi/pulumi/sdk/v3 $GO_SDK_VERSION: $(tail -n1 "$dir/build.log") (see $dir/build.log)"
      return 1
    }
    touch "$template/.done-trimpath"
  fi
  exports+=("PULUMI_HOSTING_GO_SDK_VERSION=$GO_SDK_VERSION" "PULUMI_HOSTING_GO_TEMPLATE=$template")
}

for language in "${languages[@]}"; do
  case "$language" in
  python) prepare_python || exit 1 ;;
  go) prepare_go || exit 1 ;;
  *)
    log "unknown language $language (python, go)"
    exit 2
    ;;
  esac
done
if [ "$json" = 1 ]; then
  sep="{"
  for e in "${exports[@]}"; do
    v="${e#*=}"
    v="${v//\\/\\\\}"
    printf '%s"%s": "%s"' "$sep" "${e%%=*}" "${v//\"/\\\"}"
    sep=", "
  done
  [ "$sep" = "{" ] && printf '{'
  printf '}\n'
else
  for e in "${exports[@]}"; do printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"; done
fi
