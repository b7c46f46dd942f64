import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../provider/providers";
import { regenerate, repositoryRoot } from "../../scripts/reference";

const root = repositoryRoot(__dirname);
const readme = readFileSync(join(root, "README.md"), "utf8");

describe("README resource reference", () => {
  // Generating reads every declaration through the TypeScript checker: a few seconds.
  const generated = regenerate(readme, root);

  it("is what the kinds declare (run npm run reference when this fails)", () => {
    expect(generated === readme, "README.md's resource reference is out of date: run npm run reference").toBe(
      true,
    );
  });

  it("has a block for every kind, with its id parts, defaults and what a change does", () => {
    for (const provider of PROVIDERS) expect(readme).toContain(`### ${provider.kind}\n`);
    expect(generated).toContain('| `contentType` | `"json" \\| "form"` | `"form"` | updates |');
    expect(generated).toContain("| `owner` (required) | `string` |  | **replaces** |");
    expect(generated).toContain("**id**: `owner/repository/hookId`, each part URL-encoded.");
    expect(generated).toContain("| `value` | `string`; a secret in state |");
  });

  it("fails when a kind has no block", () => {
    const without = readme.replace("<!-- reference:Budget -->", "");
    expect(() => regenerate(without, root)).toThrow(
      "README.md has no <!-- reference:Budget --> ... <!-- /reference:Budget --> block",
    );
  });
});
