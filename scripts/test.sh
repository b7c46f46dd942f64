#!/usr/bin/env bash
# Runs every suite: unit, sandbox server, provider lifecycle, and end to end with the real Pulumi
# CLI (installed by scripts/bootstrap.sh when missing). Extra arguments go to vitest.
# At the end it checks that the tests cleaned up after themselves (scripts/leftovers.ts): nothing
# left in the run's temporary folder, none of the run's processes still running; it fails naming
# what was left.
set -euo pipefail
# The run's own temporary folder (TMPDIR of every process it starts) and id (HOSTING_TEST_RUN,
# which those processes inherit, orphans included). The folder is removed at exit, so the system
# temp folder keeps nothing of the run even when the check fails or the run is interrupted. Its name
# must not contain the package's name: @pulumi/pulumi before 3.251 finds a package's folder by the
# first occurrence of its name in the path (docs/install.md), which breaks the lowest-SDK test.
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/hosting-test.XXXXXX")"
trap 'rm -rf "$run_dir"' EXIT
# The PostgreSQL server of the fleet tests (scripts/postgres.sh) outlives the run and is reused by
# the next: its cluster stays in the system temp folder, not in the run's.
export HOSTING_POSTGRES_DIR="${HOSTING_POSTGRES_DIR:-${TMPDIR:-/tmp}/pulumi-hosting-postgres-$(id -u)}"
mkdir "$run_dir/tmp"
export TMPDIR="$run_dir/tmp"
HOSTING_TEST_RUN="$(basename "$run_dir")"
export HOSTING_TEST_RUN
# Node's compile cache (npm and tsc turn it on) would be written to TMPDIR: keep it with the
# toolchain instead, where the next run finds it.
compile_cache="$HOME/.cache/pulumi-hosting/node-compile-cache"
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$compile_cache}"
# Node keys that cache by a module's path, and each run's programs load their packages from new
# temporary folders: their entries serve one run only, about 4,000 files a run. Entries not
# written for two days go (a module still in use is compiled again once), looked for once a day (the
# walk takes about 0.7 s). Only from this cache: one given in NODE_COMPILE_CACHE is its owner's.
pruned="$compile_cache/.pruned"
if [ "$NODE_COMPILE_CACHE" = "$compile_cache" ] && [ -d "$compile_cache" ] &&
  [ -z "$(find "$pruned" -mmin -1440 2>/dev/null)" ]; then
  find "$compile_cache" -type f -mtime +1 ! -name .pruned -delete 2>/dev/null || true
  touch "$pruned"
fi
source "$(dirname "$0")/env.sh"
# The platform's published API description, which only the conformance checks read, is a package
# of its own (test/conformance/package.json): as a devDependency its 385 MB were written by every
# install from a git URL, whose `prepare` installs the devDependencies (docs/DECISIONS.md).
conformance=test/conformance
if [ ! -f "$conformance/node_modules/.package-lock.json" ] ||
  [ "$conformance/package-lock.json" -nt "$conformance/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$conformance" --no-audit --no-fund --loglevel=error
fi
# Python and Go programs (test/e2e/languages.test.ts) need more than the language hosts: a virtualenv
# with `pulumi` from PyPI and the compiled Go SDK, prepared once in the cache. Where that fails, that
# test fails saying so.
if languages="$(bash scripts/languages.sh)"; then
  eval "$languages"
else
  echo "test.sh: the Python or Go toolchain could not be prepared (above); test/e2e/languages.test.ts will fail" >&2
fi
report="$run_dir/vitest.json"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# The totals, and the slowest files (wall seconds each, files run side by side): where the suite's
# time goes, for whoever keeps it under five minutes.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  const slowest = r.testResults
    .map((f) => [((f.endTime - f.startTime) / 1000).toFixed(1), require("path").relative(process.cwd(), f.name)])
    .sort((a, b) => b[0] - a[0])
    .slice(0, 12);
  console.log(`slowest files: ${slowest.map(([s, name]) => `${name} ${s} s`).join(", ")}`);
' "$report" || true
node dist/scripts/leftovers.js "$TMPDIR" "$HOSTING_TEST_RUN" --keep-postgres "$HOSTING_POSTGRES_DIR" ||
  { [ "$status" -ne 0 ] || status=1; }
exit "$status"
