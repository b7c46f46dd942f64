/**
 * The reference pages' examples (docs/reference/, written by `npm run generate`), taken as users
 * read them: the end-to-end tests run some of them as whole programs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./pulumi";

/** A reference page's example (docs/reference/<page>.md) in one language: the program as written. */
export function referenceExample(page: string, fence: "python" | "yaml"): string {
  const text = readFileSync(join(ROOT, "docs/reference", `${page}.md`), "utf8");
  const block = text.split("## Example\n")[1]?.split(`\`\`\`${fence}\n`)[1]?.split("\n```")[0];
  if (block === undefined) throw new Error(`docs/reference/${page}.md has no ${fence} example`);
  return `${block}\n`;
}
