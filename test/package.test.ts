/**
 * What installing the package runs. npm (11.x) warns on every install of a package with a script it
 * runs at install time ("install scripts not yet covered by allowScripts"), `prepare` included, even
 * from a tarball where it does not run it. The build a git URL needs is `prepack`, which npm runs
 * when it packs a git dependency (after installing its devDependencies) and never on install.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

it("runs no script when it is installed, and builds when a git URL's checkout is packed", () => {
  const atInstall = ["preinstall", "install", "postinstall", "prepare"].filter((s) => s in manifest.scripts);
  expect(atInstall).toEqual([]);
  expect(manifest.scripts.prepack).toBe("npm run build");
});
