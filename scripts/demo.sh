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

# The sandbox's data was a JSON file before it was an SQLite database: the server migrates it on
# first open (keeping the JSON beside it), so an older demo goes on where it stopped.
if [ -f "$DEMO/emulator.json" ] && [ ! -f "$DEMO/sandbox.db" ]; then
  mv "$DEMO/emulator.json" "$DEMO/sandbox.db"
fi

# A fixed port: refresh talks to the address recorded with the stack's provider, so it must not move.
port="${HOSTING_DEMO_PORT:-3878}"
node dist/emulator/cli.js --port "$port" --data "$DEMO/sandbox.db" >"$DEMO/emulator.log" 2>&1 &
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
