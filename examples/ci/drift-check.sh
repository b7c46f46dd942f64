#!/usr/bin/env bash
# Nightly drift check: exits non-zero, naming each drifted field, when the platform no longer
# matches the program. Needs PULUMI_BACKEND_URL (or a login), the stack name, and the token as
# the secret stack config hosting:token (or HOSTING_TOKEN). --run-program configures the provider
# from the current stack config, so a rotated token is used at once (Pulumi CLI 3.169 or later).
#   STACK=prod bash examples/ci/drift-check.sh
set -euo pipefail
: "${STACK:?set STACK to the stack to check}"
pulumi stack select "$STACK" --non-interactive
pulumi preview --refresh --run-program --expect-no-changes --diff --non-interactive --color never
