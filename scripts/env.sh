# Sourced by the project's scripts: toolchain on PATH, dependencies installed, library built.
# shellcheck shell=bash
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/bootstrap.sh)"
# Install when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
  eval "$(bash scripts/bootstrap.sh)" # now that @pulumi/pulumi is installed, its provider launcher too
fi
# Built unless dist was built from exactly these sources (scripts/prepare.js, as `prepare` does):
# `npm ci` has just built it, or the last run did, and tsc takes about 8 s and 11 CPU-s.
node scripts/prepare.js
# The end-to-end global setup builds only when this is not set (a direct `npx vitest` run).
export PULUMI_HOSTING_BUILT=1
