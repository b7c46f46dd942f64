/**
 * Where the schema says the CLI downloads the plugin from (scripts/schema.ts): the project's GitHub
 * releases in the committed schema.json (so the SDKs committed at a tag are the release's), and
 * what a release sets (`SchemaRelease`): its version and `pluginDownloadURL`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { DEFAULT_PLUGIN_DOWNLOAD_URL, packageSchema, schemaText } from "../../scripts/schema";

const ROOT = join(__dirname, "../..");

it("the committed schema names the project's GitHub releases and package.json's version", () => {
  const committed = packageSchema(ROOT);
  expect(committed.version).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  expect(committed.pluginDownloadURL).toBe("github://api.github.com/pulumi-hosting/pulumi-hosting");
  expect(DEFAULT_PLUGIN_DOWNLOAD_URL).toBe(committed.pluginDownloadURL);
  expect(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")).pluginDownloadURL).toBe(
    DEFAULT_PLUGIN_DOWNLOAD_URL,
  );
  // Next to the version, as Pulumi's own schemas have it.
  expect(Object.keys(committed).slice(0, 6)).toEqual([
    "name",
    "displayName",
    "version",
    "description",
    "pluginDownloadURL",
    "keywords",
  ]);
});

it("a release's schema carries its version and download URL, and differs in nothing else", () => {
  const url = "https://downloads.example.com/hosting";
  const released = JSON.parse(schemaText(ROOT, { version: "0.3.0", pluginDownloadURL: url }));
  expect(released).toEqual({ ...packageSchema(ROOT), version: "0.3.0", pluginDownloadURL: url });
});
