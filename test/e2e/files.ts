/**
 * Files and their digest, for the caches the end-to-end tests keep in the toolchain's folder (the
 * setup's packed tarballs, the release test's release): each cache entry is named by a digest of
 * what it was made from.
 */
import type { Hash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under a folder, sorted; none when the folder does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Adds each file's path relative to `root`, then its bytes, to `hash`: a clone elsewhere (CI's)
 * with the same files gives the same digest.
 */
export function hashFiles(hash: Hash, root: string, files: readonly string[]): Hash {
  for (const file of files) hash.update(`${relative(root, file)}\n`).update(readFileSync(file));
  return hash;
}
