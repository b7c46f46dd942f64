/**
 * The documentation's relative links: every `[text](target)` of the README, the guides in `docs/`
 * and the generated reference names a file of the repository, and every `#anchor` a heading of the
 * page it points to, with the anchors GitHub makes. The guides link each other by section, and a
 * section renamed or moved between pages would otherwise break them silently.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The pages checked: the README, the guides and the reference (its notes are copied into pages). */
export function documentationPages(root: string): string[] {
  const markdownIn = (dir: string) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => join(dir, f));
  return ["README.md", ...markdownIn("docs"), ...markdownIn("docs/reference")];
}

/** The lines of a page outside fenced code blocks (``` or ~~~), with their 1-based numbers. */
function proseLines(markdown: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text });
  });
  return out;
}

/**
 * GitHub's anchor for a heading (github-slugger): the text as rendered (code spans and links
 * reduced to their text), lower-cased, every character but letters, digits, `_`, `-` and spaces
 * dropped, spaces made hyphens.
 */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a page: one per heading, a repeated one numbered `-1`, `-2`, ... as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

export interface Link {
  line: number;
  target: string;
}

/** The links of a page to other places of the repository (not to a URL), outside code. */
export function relativeLinks(markdown: string): Link[] {
  const out: Link[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ line, target });
    }
  }
  return out;
}

/** Every link of `pages` (paths from `root`) that names no file, or no heading of its page. */
export function brokenLinks(root: string, pages: string[]): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    let found = anchorsOf.get(path);
    if (!found) {
      found = anchors(readFileSync(path, "utf8"));
      anchorsOf.set(path, found);
    }
    return found;
  };
  const broken: string[] = [];
  for (const page of pages) {
    const from = join(root, page);
    for (const { line, target } of relativeLinks(readFileSync(from, "utf8"))) {
      const where = `${page}:${line}: ${target}`;
      const [pathPart = "", anchor] = target.split("#", 2);
      const path = pathPart === "" ? from : resolve(dirname(from), decodeURIComponent(pathPart));
      if (relative(root, path).startsWith("..")) broken.push(`${where} (outside the repository)`);
      else if (!existsSync(path)) broken.push(`${where} (no such file)`);
      else if (anchor !== undefined) {
        if (statSync(path).isDirectory() || !path.endsWith(".md"))
          broken.push(`${where} (an anchor on a page that is not Markdown)`);
        else if (!anchorsIn(path).has(anchor)) broken.push(`${where} (no heading with this anchor)`);
      }
    }
  }
  return broken;
}
