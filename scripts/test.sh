#!/usr/bin/env bash
# Runs every suite: unit, sandbox server, provider lifecycle, and end to end with the real Pulumi
# CLI (installed by scripts/bootstrap.sh when missing). Extra arguments go to vitest.
set -euo pipefail
source "$(dirname "$0")/env.sh"
report="$(mktemp -d)/vitest.json"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' "$report" || true
exit "$status"
