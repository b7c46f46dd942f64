/**
 * Where the type checks of generated TypeScript find `pulumi-hosting`: the built declarations, as a
 * user's program compiles against the package, when `dist` was built from exactly these sources
 * (scripts/prepare.js's digest; scripts/test.sh builds first). Otherwise the sources, which tsc
 * then checks as well: the same answer, about 5 CPU-s more per check.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

const { builtFrom } = require("../../scripts/prepare.js") as { builtFrom: () => boolean };

let found: string | undefined;

export function libraryTypes(): string {
  if (found !== undefined) return found;
  const declarations = join(ROOT, "dist/provider/index.d.ts");
  found = existsSync(declarations) && builtFrom() ? declarations : join(ROOT, "provider/index.ts");
  return found;
}
