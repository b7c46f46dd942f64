/**
 * Where the package lives, for what the plugin reads from it at run time: its version (what
 * `GetPluginInfo` reports and the engine compares with the version a program asks for) and
 * `schema.json`. Found by walking up from this module, because the module sits at a different
 * depth in the checkout (`provider/plugin/`) and in the built package (`dist/provider/plugin/`).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const PACKAGE_NAME = "pulumi-hosting";

let root: string | undefined;

export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === PACKAGE_NAME
    ) {
      root = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`${PACKAGE_NAME}: cannot find the package's package.json above ${__dirname}`);
    dir = parent;
  }
}

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/** The package schema (`schema.json` at the package root), as text; the error says what is missing. */
export function packageSchema(): string {
  const file = join(packageRoot(), "schema.json");
  if (!existsSync(file)) {
    throw new Error(
      `${PACKAGE_NAME}: ${file} is missing, so the plugin cannot describe its resources (the package is incomplete; reinstall it)`,
    );
  }
  return readFileSync(file, "utf8");
}
