/**
 * What `--format pulumi-import` refuses: values the CLI's YAML code generator writes so that they
 * read back otherwise (importer/pulumi-import.ts says which and why; each was seen with
 * `pulumi import --out code.yaml` and a preview of its code).
 */
import { describe, expect, it } from "vitest";
import { importHazard, importHazards } from "../../importer/pulumi-import";
import { inventory, items } from "./sample-inventory";

describe("importHazard", () => {
  it.each([
    `leak-$\${hookSecret}`,
    `a \${b} $\${c}`,
    "a$$b",
    `\${x}`,
    "line\u2028break",
    "para\u2029graph",
    "next\u0085line",
    "null",
    "~",
    ".inf",
    "0o17",
    "0X1F",
    "1_000",
    "2001-12-14",
    "<<",
    "yes",
    "Off",
  ])("refuses %j", (text) => {
    expect(importHazard(text)).toBeDefined();
  });

  it.each([
    "plain",
    "a $ alone",
    "price $5",
    "quotes \" and ' and `",
    "back\\slash",
    "percent %{x}",
    "multi\nline\n",
    "tab\there",
    "bom\ufeffinside",
    "nul\u0000byte",
    "emoji 😀",
    "0a0d2ec1-93ba-4835-a40b-e20a3ec81e4c",
    "1000-api",
    "",
    "key: value",
    "- dash",
  ])("lets %j through (the generator writes it right)", (text) => {
    expect(importHazard(text)).toBeUndefined();
  });
});

describe("importHazards", () => {
  it("names each object with the first such value, nested values and keys included", () => {
    const field = items.find((i) => i.kind === "IssueField");
    const hostile = [
      {
        ...(field as (typeof items)[number]),
        args: { ...field?.args, options: [{ name: "ok" }, { name: "null" }] },
      },
    ];
    expect(importHazards({ ...inventory, items: hostile })).toEqual([
      'IssueField acme-eng-issue-field-priority ("acme-eng/13"): its options[1].name is "null" (read back as other than text)',
    ]);
  });

  it("finds none in the sample inventory but the hook's interpolation", () => {
    expect(importHazards(inventory)).toEqual([
      'RepositoryWebhook acme-eng-api-hook-ci-example-com ("acme-eng/api/1"): its url holds "${" or "$$" (read back as "$" and an interpolation)',
    ]);
  });
});
