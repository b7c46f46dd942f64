/**
 * The Node.js version the commands need, checked before anything else loads: on an older Node the
 * sandbox server fails deep inside with `ERR_UNKNOWN_BUILTIN_MODULE: node:sqlite`, and the SDK with
 * errors about `fs.glob`. This module loads nothing, so it runs on any Node.
 */

/** The lowest Node.js version the package supports (package.json `engines`). */
export const MINIMUM_NODE = "22.19.0";

/** Whether `version` (`20.20.2`, or with a leading `v`) is at least `minimum`. */
export function isAtLeast(version: string, minimum: string = MINIMUM_NODE): boolean {
  const parts = (v: string) =>
    v
      .replace(/^v/, "")
      .split(".")
      .map((p) => Number.parseInt(p, 10) || 0);
  const have = parts(version);
  const need = parts(minimum);
  for (let i = 0; i < need.length; i++) {
    const h = have[i] ?? 0;
    const n = need[i] ?? 0;
    if (h !== n) return h > n;
  }
  return true;
}

/** The one line a command prints on a Node.js too old for it. */
export function tooOld(command: string, version: string): string {
  return (
    `${command} needs Node.js ${MINIMUM_NODE} or later; this is Node.js ${version.replace(/^v/, "")}. ` +
    `Install Node.js 22 or 24 (https://nodejs.org, or "nvm install 24"), or in a checkout of ` +
    `pulumi-hosting run: eval "$(bash scripts/bootstrap.sh)"`
  );
}

/** Exits with that line when this Node.js is too old for `command`. */
export function requireNode(command: string): void {
  if (isAtLeast(process.versions.node)) return;
  process.stderr.write(`${tooOld(command, process.versions.node)}\n`);
  process.exit(1);
}
