/**
 * Where the type checks of generated TypeScript find `pulumi-hosting`: the built declarations, as a
 * user's program compiles against the package, when `dist` was built from exactly these sources
 * (scripts/prepare.js's digest; scripts/test.sh builds first). Otherwise the sources, which tsc
 * then checks as well: the same answer, about 5 CPU-s more per check.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

const { sourcesDigest } = require("../../scripts/prepare.js") as { sourcesDigest: (root: string) => string };

let found: string | undefined;

export function libraryTypes(): string {
  if (found !== undefined) return found;
  const stamp = join(ROOT, "dist/.sources.sha256");
  const built =
    existsSync(join(ROOT, "dist/provider/index.d.ts")) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8").trim() === sourcesDigest(ROOT);
  found = built ? join(ROOT, "dist/provider/index.d.ts") : join(ROOT, "provider/index.ts");
  return found;
}
