#!/usr/bin/env bash
# Runs every suite: unit, sandbox server, provider lifecycle, and end to end with the real Pulumi
# CLI (installed by scripts/bootstrap.sh when missing). Extra arguments go to vitest.
set -euo pipefail
source "$(dirname "$0")/env.sh"
# Python and Go programs (test/e2e/languages.test.ts) need more than the language hosts: a virtualenv
# with `pulumi` from PyPI and the compiled Go SDK, prepared once in the cache. Where that fails, that
# test fails saying so.
if languages="$(bash scripts/languages.sh)"; then
  eval "$languages"
else
  echo "test.sh: the Python or Go toolchain could not be prepared (above); test/e2e/languages.test.ts will fail" >&2
fi
report="$(mktemp -d)/vitest.json"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' "$report" || true
exit "$status"
