/**
 * Finds the Pulumi projects of a fleet: every folder under the root holding a `Pulumi.yaml` (or
 * `Pulumi.yml`), its project name read from the file's `name:`. A project's own folders are not
 * searched further (a project is not nested in another), nor are `node_modules` and hidden
 * folders, so a fleet's shared `node_modules` costs nothing to walk past.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface Project {
  /** The name in Pulumi.yaml. */
  project: string;
  /** Absolute folder. */
  dir: string;
  /** Folder relative to the root (`.` for the root itself). */
  rel: string;
}

/** How deep below the root projects are looked for: `--split` writes them one level down. */
const MAX_DEPTH = 4;

export function findProjects(root: string): Project[] {
  const found: Project[] = [];
  const walk = (dir: string, depth: number): void => {
    const file = projectFile(dir);
    if (file !== undefined) {
      found.push({
        project: projectName(readFileSync(file, "utf8"), file),
        dir,
        rel: relative(root, dir) || ".",
      });
      return;
    }
    if (depth >= MAX_DEPTH) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      walk(join(dir, entry.name), depth + 1);
    }
  };
  walk(root, 0);
  const byName = new Map<string, Project>();
  for (const p of found) {
    const other = byName.get(p.project);
    if (other) {
      throw new Error(
        `two projects are named ${p.project} (${other.rel} and ${p.rel}): a backend keeps one set of stacks per project name`,
      );
    }
    byName.set(p.project, p);
  }
  return found.sort((a, b) => a.project.localeCompare(b.project));
}

/** A folder's `Pulumi.yaml` (or `Pulumi.yml`), when it is a project's. */
export function projectFile(dir: string): string | undefined {
  return ["Pulumi.yaml", "Pulumi.yml"].map((f) => join(dir, f)).find((f) => existsSync(f));
}

/** The top-level `name:` of a Pulumi.yaml (a plain or quoted scalar). */
export function projectName(text: string, file: string): string {
  const match = /^name:[ \t]*(?:"([^"]+)"|'([^']+)'|([^\s#]+))/m.exec(text);
  const name = match?.[1] ?? match?.[2] ?? match?.[3];
  if (name === undefined) throw new Error(`${file} has no top-level name:`);
  return name;
}
