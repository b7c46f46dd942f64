/**
 * `npm run prepare`: builds the library unless `dist` was built from exactly these sources. The
 * project's scripts (scripts/env.sh) build the same way, so a second test run builds nothing.
 *
 * An install from a git URL runs `prepare` twice in the same clone: npm's `npm install` there runs
 * it, and packing the folder runs it again. The second build (about 11 CPU-seconds of tsc) would
 * give the same files, so the build records a digest of what it was built from
 * (`dist/.sources.sha256`) and a later `prepare` whose sources give the same digest builds nothing.
 * Plain JavaScript: it runs before anything is built.
 */
const { execFileSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { existsSync, readdirSync, readFileSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");

const ROOT = join(__dirname, "..");
/** What `tsc -p tsconfig.build.json` reads: the folders it includes, and the configuration. */
const SOURCES = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")).include;
/**
 * The configuration, and the lockfile: another TypeScript, or another version of a dependency
 * whose types the library uses, may build other files.
 */
const CONFIG = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
const STAMP = join(ROOT, "dist", ".sources.sha256");

/** The digest of every source file's path and bytes, in a fixed order. */
function sourcesDigest(root) {
  const files = CONFIG.map((f) => join(root, f)).filter((f) => existsSync(f));
  for (const dir of SOURCES) {
    const at = join(root, dir);
    if (!existsSync(at)) continue;
    for (const entry of readdirSync(at, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name);
      if (entry.isFile() && !relative(at, file).split(/[\\/]/).includes("node_modules")) files.push(file);
    }
  }
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    const bytes = readFileSync(file);
    hash.update(`${relative(root, file)}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/** Whether `dist` was built from the sources whose digest is given (those there now by default). */
function builtFrom(digest = sourcesDigest(ROOT)) {
  return existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === digest;
}

function main() {
  const digest = sourcesDigest(ROOT);
  if (builtFrom(digest)) {
    console.log("pulumi-hosting: dist is already built from these sources");
    return;
  }
  execFileSync("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: "inherit" });
  writeFileSync(STAMP, `${digest}\n`);
}

module.exports = { builtFrom, sourcesDigest };
if (require.main === module) main();
