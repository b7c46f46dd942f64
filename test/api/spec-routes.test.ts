/**
 * The route table against the specification: every route the spec names, in the endpoint tables
 * and prose of endpoints.md and in the permission matrix of concepts.md, is in `ROUTES`. The
 * extraction expands the tables' abbreviations (`Let P = ...`, `E = ...`, `H = ...`), methods shared
 * by a list (`PUT, DELETE /path`; `GET /a, /b`), the stated method of a table without a method
 * column ("All are GET") and the matrix's "under that prefix".
 *
 * The spec lives beside the project (`../shared/spec` from the project root, or from a folder above
 * it, for a checkout in a worktree); `HOSTING_SPEC_DIR` names another place.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../api";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
const isMethod = (text: string): text is Method => (METHODS as readonly string[]).includes(text);

/** The folder holding endpoints.md and concepts.md, or a failure that says where it was looked for. */
function specDir(): string {
  const root = resolve(__dirname, "../..");
  const candidates: string[] = [];
  if (process.env.HOSTING_SPEC_DIR) candidates.push(resolve(process.env.HOSTING_SPEC_DIR));
  for (let dir = resolve(root, ".."); ; dir = dirname(dir)) {
    candidates.push(join(dir, "shared", "spec"));
    if (dirname(dir) === dir) break;
  }
  const found = candidates.find(
    (d) => existsSync(join(d, "endpoints.md")) && existsSync(join(d, "concepts.md")),
  );
  if (!found) {
    throw new Error(
      `The specification (endpoints.md, concepts.md) is not beside the project: looked in ${candidates.join(", ")}. ` +
        "Set HOSTING_SPEC_DIR to its folder.",
    );
  }
  return found;
}

/** A route as the spec names it, and where. */
interface SpecRoute {
  name: string;
  where: string;
}

/** A path as written: trailing punctuation dropped. */
const cleanPath = (path: string): string => path.replace(/[.,;:)]+$/, "");

/**
 * endpoints.md: table rows (`| METHOD | path |`, with the section's abbreviations expanded, or
 * `| path |` where the section says "All are GET"), prose (`POST /path. Body...`) and `Path /x`
 * with `- METHOD:` bullets. Rows whose path cell is not a path are operations without a path.
 */
function detailedRoutes(text: string): { routes: SpecRoute[]; withoutPath: string[] } {
  const routes: SpecRoute[] = [];
  const withoutPath: string[] = [];
  for (const section of text.split(/^### /m).slice(1)) {
    const title = section.slice(0, section.indexOf("\n"));
    const abbreviations = new Map<string, string>();
    for (const m of section.matchAll(/\b(?:Let )?([A-Z]{1,2}) = (\/[^\s;,]+)/g)) {
      abbreviations.set(m[1] as string, cleanPath(m[2] as string));
    }
    const allMethod = /All are (GET|POST|PUT|PATCH|DELETE)\b/.exec(section)?.[1];
    const sectionPath = /^Path (\/\S+)/m.exec(section)?.[1];
    const expand = (cell: string): string | undefined => {
      if (cell.startsWith("/")) return cleanPath(cell);
      const m = /^([A-Z]{1,2})(\/.*)?$/.exec(cell);
      const base = m ? abbreviations.get(m[1] as string) : undefined;
      return base === undefined ? undefined : cleanPath(base + (m?.[2] ?? ""));
    };
    for (const line of section.split("\n")) {
      const cells = line.startsWith("|") ? line.split("|").map((c) => c.trim()) : [];
      if (cells.length > 2) {
        const [first, second] = [cells[1] as string, cells[2] as string];
        if (isMethod(first)) {
          const path = expand(second);
          if (path) routes.push({ name: `${first} ${path}`, where: title });
          else withoutPath.push(`${first} ${second} (${title})`);
        } else if (allMethod && first.startsWith("/")) {
          routes.push({ name: `${allMethod} ${cleanPath(first)}`, where: title });
        } else if (/^[a-z]/.test(first) && /path not shown/.test(second)) {
          withoutPath.push(`${first} (${title})`);
        }
        continue;
      }
      const prose = /^(GET|POST|PUT|PATCH|DELETE) (\/\S+)/.exec(line);
      if (prose) routes.push({ name: `${prose[1]} ${cleanPath(prose[2] as string)}`, where: title });
      const bullet = /^- (GET|POST|PUT|PATCH|DELETE):/.exec(line);
      if (bullet && sectionPath)
        routes.push({ name: `${bullet[1]} ${cleanPath(sectionPath)}`, where: title });
    }
  }
  return { routes, withoutPath };
}

/** The top-level segments of the API's paths; a path starting elsewhere is relative to a prefix. */
const ROOTS = /^\/(orgs|repos|user|users|gists|enterprises|admin|notifications|organizations)(\/|$)/;
/** The matrix's "under that prefix": the billing usage routes below a user's billing settings. */
const BILLING_PREFIX = "/users/{username}/settings/billing";

/**
 * concepts.md's permission matrix: each `- Group: ...` line lists methods and paths in order; a run
 * of methods applies to the paths that follow it until the next method.
 */
function matrixRoutes(text: string): SpecRoute[] {
  const start = text.indexOf("### Permission matrix");
  const end = text.indexOf("\n## ", start);
  if (start < 0 || end < 0) throw new Error("concepts.md has no permission matrix section");
  const routes: SpecRoute[] = [];
  for (const line of text.slice(start, end).split("\n")) {
    if (!line.startsWith("- ")) continue;
    const group = line.slice(2, line.indexOf(":"));
    let methods: Method[] = [];
    let afterPath = false;
    for (const m of line.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b|(\/[A-Za-z0-9_{}/.-]+)/g)) {
      const token = m[0];
      if (isMethod(token)) {
        methods = afterPath ? [token] : [...methods, token];
        afterPath = false;
        continue;
      }
      let path = cleanPath(token);
      if (!ROOTS.test(path)) {
        if (!line.includes("under that prefix")) throw new Error(`a path without a known root in: ${line}`);
        path = BILLING_PREFIX + path;
      }
      for (const method of methods) routes.push({ name: `${method} ${path}`, where: `matrix: ${group}` });
      afterPath = true;
    }
  }
  return routes;
}

const dir = specDir();
const detailed = detailedRoutes(readFileSync(join(dir, "endpoints.md"), "utf8"));
const matrix = matrixRoutes(readFileSync(join(dir, "concepts.md"), "utf8"));
const unique = (routes: SpecRoute[]) => new Set(routes.map((r) => r.name));
const table = new Set(allRoutes().map((r) => r.name));

describe("the route table against the spec", () => {
  const all = new Set([...unique(detailed.routes), ...unique(matrix)]);
  const both = [...unique(matrix)].filter((name) => unique(detailed.routes).has(name));

  it("reports what the spec names", () => {
    const counts = {
      detailedRoutes: unique(detailed.routes).size,
      detailedRepeats: detailed.routes.length - unique(detailed.routes).size,
      detailedWithoutPath: detailed.withoutPath.length,
      matrixRoutes: unique(matrix).size,
      matrixRepeats: matrix.length - unique(matrix).size,
      inBoth: both.length,
      matrixOnly: unique(matrix).size - both.length,
      allRoutes: all.size,
      routeTable: table.size,
    };
    console.log(`spec routes: ${JSON.stringify(counts)}; without a path: ${detailed.withoutPath.join("; ")}`);
    // 76 detailed routes (two more operations show no path: the public member list, merging a
    // branch), 102 in the matrix, 14 of them detailed too (private registries, dependency alerts,
    // GPG keys): 164 in all. The route table adds what the platform has beside them (README,
    // "Sandbox").
    expect(counts).toEqual({
      detailedRoutes: 76,
      detailedRepeats: 0,
      detailedWithoutPath: 2,
      matrixRoutes: 102,
      matrixRepeats: 0,
      inBoth: 14,
      matrixOnly: 88,
      allRoutes: 164,
      routeTable: table.size,
    });
    expect(table.size).toBeGreaterThanOrEqual(all.size);
  });

  it("has every route of the endpoint tables", () => {
    const missing = detailed.routes.filter((r) => !table.has(r.name)).map((r) => `${r.name} (${r.where})`);
    expect(missing).toEqual([]);
  });

  it("has every route of the permission matrix", () => {
    const missing = matrix.filter((r) => !table.has(r.name)).map((r) => `${r.name} (${r.where})`);
    expect(missing).toEqual([]);
  });

  it("extracts the forms the spec writes", () => {
    const sample = detailedRoutes(
      [
        "### X",
        "Let P = /a/{id}/p. H = /h;",
        "| Method | Path |",
        "|---|---|",
        "| GET | P/apps |",
        "| DELETE | H |",
        "| merge | path not shown | body |",
        "| GET | public list | none |",
        "POST /b/{x}. Body.",
        "### Y",
        "All are GET with no parameters.",
        "| /s/one | 200 |",
        "Path /c/{n}.",
        "- PATCH: body",
      ].join("\n"),
    );
    expect(sample.routes.map((r) => r.name)).toEqual([
      "GET /a/{id}/p/apps",
      "DELETE /h",
      "POST /b/{x}",
      "GET /s/one",
      "PATCH /c/{n}",
    ]);
    expect(sample.withoutPath).toEqual(["merge (X)", "GET public list (X)"]);
    const rows = matrixRoutes(
      [
        "### Permission matrix",
        "- A: PUT, DELETE /orgs/{o}/b/{u} (w); GET /orgs/{o}/b, /orgs/{o}/c (r).",
        "- B: PUT (w), GET (r) /orgs/{o}/x.",
        "- Plan (r): GET /users/{username}/settings/billing/a/usage, /usage under that prefix.",
        "",
        "## Next",
      ].join("\n"),
    );
    expect(rows.map((r) => r.name)).toEqual([
      "PUT /orgs/{o}/b/{u}",
      "DELETE /orgs/{o}/b/{u}",
      "GET /orgs/{o}/b",
      "GET /orgs/{o}/c",
      "PUT /orgs/{o}/x",
      "GET /orgs/{o}/x",
      "GET /users/{username}/settings/billing/a/usage",
      "GET /users/{username}/settings/billing/usage",
    ]);
  });
});
