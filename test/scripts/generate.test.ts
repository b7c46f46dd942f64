/**
 * What derives from the declarations (schema.json and docs/reference/) is current, and says what
 * the declarations say.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../provider/providers";
import { FUNCTIONS } from "../../provider/registry";
import { generatedFiles, leftOver, staleFiles } from "../../scripts/generate";
import { repositoryRoot } from "../../scripts/reference";

const root = repositoryRoot(__dirname);
const files = generatedFiles(root);
const schema = JSON.parse(files.get("schema.json") ?? "{}");

describe("generated files", () => {
  it("are current (run npm run generate when this fails)", () => {
    expect(staleFiles(root, files), "out of date: run npm run generate").toEqual([]);
  });

  it("give every kind and function a page, and the schema every token", () => {
    expect(Object.keys(schema.resources)).toEqual(PROVIDERS.map((p) => `hosting:index:${p.kind}`));
    expect(Object.keys(schema.functions)).toEqual(FUNCTIONS.map((f) => `hosting:index:${f.name}`));
    expect(PROVIDERS).toHaveLength(40);
    expect(FUNCTIONS).toHaveLength(11);
    for (const p of PROVIDERS) expect(files.has(join("docs/reference", `${p.kind}.md`))).toBe(true);
    for (const f of FUNCTIONS) expect(files.has(join("docs/reference", `${f.name}.md`))).toBe(true);
  });

  it("say the type, default and what a change does of each argument", () => {
    const hook = files.get("docs/reference/RepositoryWebhook.md") ?? "";
    expect(hook).toContain(
      '| `contentType` | `content_type` / `ContentType` | "json" \\| "form" ([RepositoryWebhookContentType](#repositorywebhookcontenttype)) | `"form"` | updates |',
    );
    expect(hook).toContain("| `owner` (required) | `owner` / `Owner` | string |  | **replaces** |");
    expect(hook).toContain("The id is `owner/repository/hookId`, each part URL-encoded.");
    // An id with literal parts is shown as its kind's idText says, not as its idFormat.
    expect(files.get("docs/reference/OrgRoleAssignment.md")).toContain(
      "The id is `org/teams/<team>/<roleId> or org/users/<username>/<roleId>`, each part URL-encoded.",
    );
    expect(hook).toContain("| `secret` | `secret` / `Secret` | string; a secret in state |");
    expect(hook).toContain('new hosting.RepositoryWebhook("ci", {');
    const webhook = schema.resources["hosting:index:RepositoryWebhook"];
    expect(webhook.inputProperties.secret).toMatchObject({ type: "string", secret: true });
    expect(webhook.inputProperties.owner).toMatchObject({ replaceOnChanges: true });
    expect(webhook.aliases).toEqual([{ type: "pulumi-nodejs:dynamic/hosting:RepositoryWebhook" }]);
    expect(schema.config.variables.token).toMatchObject({ secret: true });
    expect(schema.provider.inputProperties.baseUrl).toMatchObject({ type: "string" });
  });

  it("list nested types with their fields", () => {
    const field = files.get("docs/reference/IssueField.md") ?? "";
    expect(field).toContain("### IssueFieldOption");
    expect(field).toMatch(/\| `color` \| /);
    expect(schema.types["hosting:index:IssueFieldOption"].required).toContain("color");
  });

  it("notice a missing or left-over file", () => {
    const copy = mkdtempSync(join(tmpdir(), "generate-"));
    try {
      writeFileSync(join(copy, "package.json"), readFileSync(join(root, "package.json")));
      expect(leftOver(copy, files)).toEqual([]);
      expect(staleFiles(copy, files)).toContain("schema.json");
      expect(staleFiles(copy, files)).toContain("provider/registry.ts");
      mkdirSync(join(copy, "provider/kinds"), { recursive: true });
      writeFileSync(join(copy, "provider/kinds/gone-kind.ts"), "");
      expect(leftOver(copy, files)).toEqual(["provider/kinds/gone-kind.ts"]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("find every kind's provider and every function in the family modules", () => {
    const registry = files.get("provider/registry.ts") ?? "";
    for (const p of PROVIDERS)
      expect(registry).toContain(`  ${p.kind.charAt(0).toLowerCase()}${p.kind.slice(1)}Provider,`);
    for (const f of FUNCTIONS) expect(registry).toContain(`  ${f.name}Function,`);
    expect(files.get("provider/kinds/org-membership.ts")).toContain("export = orgMembershipProvider;");
  });
});
