#!/usr/bin/env bash
# Writes the SDKs of the native plugin from schema.json with Pulumi's own generators (through
# pulumi-hosting-codegen, which scripts/bootstrap.sh builds): sdk/python (pip-installable, module
# pulumi_hosting), sdk/go (module github.com/pulumi-hosting/pulumi-hosting/sdk/go) and sdk/nodejs
# (TypeScript sources of @pulumi-hosting/sdk). Never edit them by hand: `npm run build:sdks` runs
# this after regenerating schema.json, and test/scripts/sdks.test.ts fails when they are stale.
# Usage: bash scripts/build-sdks.sh [SCHEMA [OUTDIR]]   (defaults: schema.json, sdk)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
schema="${1:-$ROOT/schema.json}"
out="${2:-$ROOT/sdk}"
if ! command -v pulumi-hosting-codegen >/dev/null; then
  eval "$(bash "$ROOT/scripts/bootstrap.sh")"
fi
mkdir -p "$out"
for language in python go nodejs; do
  pulumi-hosting-codegen sdk --strict "$language" "$schema" "$out/$language"
done
