/**
 * What a release sets in the schema (scripts/schema.ts, `SchemaRelease`): its version and
 * `pluginDownloadURL`; the committed schema.json carries package.json's version and no URL.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { packageSchema, schemaText } from "../../scripts/schema";

const ROOT = join(__dirname, "../..");

it("a release's schema carries its version and download URL, and differs in nothing else", () => {
  const committed = packageSchema(ROOT);
  expect(committed.version).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  expect(committed).not.toHaveProperty("pluginDownloadURL");
  expect(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"))).not.toHaveProperty("pluginDownloadURL");

  const url = "github://api.github.com/acme/pulumi-hosting";
  const released = JSON.parse(schemaText(ROOT, { version: "0.3.0", pluginDownloadURL: url }));
  expect(released).toEqual({ ...committed, version: "0.3.0", pluginDownloadURL: url });
  // Next to the version, as Pulumi's own schemas have it.
  expect(Object.keys(released).slice(0, 6)).toEqual([
    "name",
    "displayName",
    "version",
    "description",
    "pluginDownloadURL",
    "keywords",
  ]);
});
