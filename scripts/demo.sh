#!/usr/bin/env bash
# The main job: start the sandbox server with persistent data, `pulumi up` the root program
# against it, then run the drift check CI would run. Re-running converges the same stack.
#   bash scripts/demo.sh            # state and data under .demo/; port 3878 (HOSTING_DEMO_PORT)
set -euo pipefail
source "$(dirname "$0")/env.sh"

DEMO="$ROOT/.demo"
mkdir -p "$DEMO/state"
# The root program imports the library by name, as users do.
ln -sfn .. node_modules/pulumi-hosting

# Sandbox data of an older schema cannot be loaded: start the demo afresh (server data and stack).
if [ -f "$DEMO/emulator.json" ] &&
  ! node -e 'process.exit(require(process.argv[1]).schema === require("./dist/emulator/store").STATE_SCHEMA ? 0 : 1)' "$DEMO/emulator.json"; then
  echo "the demo's sandbox data is of an older version: starting afresh"
  rm -rf "$DEMO"
  mkdir -p "$DEMO/state"
fi

# A fixed port: refresh talks to the address recorded with the stack's provider, so it must not move.
port="${HOSTING_DEMO_PORT:-3878}"
node dist/emulator/cli.js --port "$port" --data "$DEMO/emulator.json" >"$DEMO/emulator.log" 2>&1 &
emulator_pid=$!
trap 'kill "$emulator_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  api_root="$(sed -n 's/^listening on //p' "$DEMO/emulator.log" | head -n1)"
  [ -n "$api_root" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$DEMO/emulator.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$api_root" ] || { echo "the sandbox server did not start" >&2; exit 1; }
echo "sandbox server: $api_root"

export PULUMI_BACKEND_URL="file://$DEMO/state" PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-}"
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_HOME="${PULUMI_HOME:-$DEMO/pulumi-home}"
flags=(--non-interactive --color never)
pulumi stack select demo "${flags[@]}" 2>/dev/null || pulumi stack init demo "${flags[@]}"
pulumi config set hosting:baseUrl "$api_root" "${flags[@]}"
pulumi config set --secret hosting:token svcp_siteadmin "${flags[@]}"

pulumi up --yes --refresh "${flags[@]}"

echo
echo "Drift check (what CI runs): pulumi preview --refresh --run-program --expect-no-changes"
if pulumi preview --refresh --run-program --expect-no-changes "${flags[@]}" >"$DEMO/drift.log" 2>&1; then
  echo "no drift: the platform matches the program"
else
  cat "$DEMO/drift.log"
  echo "drift found" >&2
  exit 1
fi
