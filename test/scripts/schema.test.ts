/**
 * Enum types in the package schema: every zod enum of the declarations becomes a string enum type
 * (`hosting:index:<Kind><Field>`, or its `.meta({ id })`), and the property the enum or any string,
 * so programs that pass plain strings keep compiling in every SDK.
 *
 * Where the schema says the CLI downloads the plugin from (scripts/schema.ts): the project's GitHub
 * releases in the committed schema.json (so the SDKs committed at a tag are the release's), and
 * what a release sets (`SchemaRelease`): its version and `pluginDownloadURL`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { declareKind, field } from "../../provider/internal/declare";
import {
  Converter,
  DEFAULT_PLUGIN_DOWNLOAD_URL,
  enumValueName,
  type PackageSchema,
  packageSchema,
  resourceSpec,
  schemaText,
  singular,
} from "../../scripts/schema";

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

const schema: PackageSchema = packageSchema(ROOT);
const either = (name: string) => ({ oneOf: [{ type: "string" }, { $ref: `#/types/hosting:index:${name}` }] });

describe("enum types", () => {
  it("name each enum of a kind after the kind and the field, its values' constants in PascalCase", () => {
    expect(schema.types["hosting:index:OrgMembershipRole"]).toEqual({
      type: "string",
      description: "The values of `OrgMembership.role`.",
      enum: [
        { value: "member", name: "Member" },
        { value: "admin", name: "Admin" },
      ],
    });
    const membership = schema.resources["hosting:index:OrgMembership"];
    expect(membership?.inputProperties.role).toMatchObject(either("OrgMembershipRole"));
    expect(membership?.inputProperties.onDestroy).toMatchObject(either("OrgMembershipOnDestroy"));
    // An output-only enum too: what state records is the same string either way.
    expect(membership?.properties.state).toMatchObject(either("OrgMembershipState"));
    const budget = schema.resources["hosting:index:Budget"];
    expect(budget?.inputProperties.scope).toMatchObject(either("BudgetScope"));
    expect(budget?.inputProperties.type).toMatchObject(either("BudgetType"));
    const registry = schema.resources["hosting:index:PrivateRegistry"]?.inputProperties;
    expect(registry?.authType).toMatchObject(either("PrivateRegistryAuthType"));
    expect(registry?.registryType).toMatchObject(either("PrivateRegistryRegistryType"));
    expect(schema.types["hosting:index:PrivateRegistryRegistryType"]).toMatchObject({
      enum: expect.arrayContaining([{ value: "npm_registry", name: "NpmRegistry" }]),
    });
    expect(schema.resources["hosting:index:RepositoryWebhook"]?.inputProperties.contentType).toMatchObject(
      either("RepositoryWebhookContentType"),
    );
    // The kinds of Actions, environments and organisation webhooks.
    expect(schema.resources["hosting:index:OrgWebhook"]?.inputProperties.contentType).toMatchObject(
      either("OrgWebhookContentType"),
    );
    for (const kind of ["OrgActionsSecret", "OrgActionsVariable"]) {
      expect(schema.resources[`hosting:index:${kind}`]?.inputProperties.visibility).toMatchObject(
        either(`${kind}Visibility`),
      );
    }
    expect(schema.types["hosting:index:EnvironmentReviewer"]).toMatchObject({
      properties: { type: either("EnvironmentReviewerType") },
    });
    expect(schema.types["hosting:index:EnvironmentBranchPolicy"]).toMatchObject({
      properties: { type: either("EnvironmentBranchPolicyType") },
    });
  });

  it("name the enum of a list's items in the singular, and of a nested type's field after the type", () => {
    expect(schema.resources["hosting:index:GlobalWebhook"]?.inputProperties.events).toMatchObject({
      type: "array",
      items: either("GlobalWebhookEvent"),
    });
    expect(schema.types["hosting:index:IssueFieldOption"]).toMatchObject({
      properties: { color: either("IssueFieldOptionColor") },
    });
  });

  it("give functions' enums the function's name, and a list's items the enum where a value or a list is taken", () => {
    const members = schema.functions["hosting:index:getOrgMembers"];
    expect(members?.inputs.properties.filter).toMatchObject(either("GetOrgMembersFilter"));
    // The same values as an input and a result: one type.
    expect(members?.outputs.properties.role).toMatchObject(either("GetOrgMembersRole"));
    expect(schema.types["hosting:index:GetOrgMembersFilter"]).toMatchObject({
      enum: [
        { value: "all", name: "All" },
        { value: "2fa_disabled", name: "TwoFaDisabled" },
        { value: "2fa_insecure", name: "TwoFaInsecure" },
      ],
    });
    // One value or a list: the list's items are the enum or any string; the value, any string (Go's
    // generator would type a choice of a string, an enum and a list as a string alone).
    expect(schema.functions["hosting:index:getDependencyAlerts"]?.inputs.properties.state).toMatchObject({
      oneOf: [{ type: "string" }, { type: "array", items: either("GetDependencyAlertsState") }],
    });
  });

  it("never type a property as the enum alone (a plain string would stop compiling in Python and Go)", () => {
    const alone: string[] = [];
    const visit = (node: unknown, where: string, inChoice: boolean): void => {
      if (typeof node !== "object" || node === null) return;
      const n = node as Record<string, unknown>;
      if (typeof n.$ref === "string" && !inChoice) {
        const target = schema.types[n.$ref.replace("#/types/", "")];
        if (target?.type === "string") alone.push(where);
      }
      for (const [k, v] of Object.entries(n)) {
        if (k === "oneOf" && Array.isArray(v)) for (const c of v) visit(c, `${where}.oneOf`, true);
        else if (k !== "enum") visit(v, `${where}.${k}`, false);
      }
    };
    visit(schema.resources, "resources", false);
    visit(schema.functions, "functions", false);
    visit(schema.types, "types", false);
    expect(alone).toEqual([]);
    expect(Object.values(schema.types).filter((t) => t.type === "string").length).toBeGreaterThan(20);
  });
});

describe("the converter", () => {
  const kind = (name: string, inputs: z.ZodObject) =>
    declareKind({ kind: name, description: "A test kind.", idFormat: [], inputs, outputs: z.object({}) });

  it("names an enum shared by several kinds after its .meta({ id }), once", () => {
    const shared = z.enum(["low", "high"]).meta({ id: "Level", description: "How loud." });
    const convert = new Converter("test");
    const a = resourceSpec(convert, kind("Alarm", z.object({ level: field(shared, { description: "x" }) })));
    const b = resourceSpec(
      convert,
      kind("Bell", z.object({ level: field(shared.optional(), { description: "y" }) })),
    );
    expect(a.inputProperties.level).toMatchObject(either("Level"));
    expect(b.inputProperties.level).toMatchObject(either("Level"));
    expect(convert.types["hosting:index:Level"]).toEqual({
      type: "string",
      description: "How loud.",
      enum: [
        { value: "low", name: "Low" },
        { value: "high", name: "High" },
      ],
    });
    expect(Object.keys(convert.types)).toEqual(["hosting:index:Level"]);
  });

  it("refuses one name for two enums of different values, saying how to tell them apart", () => {
    const convert = new Converter("test");
    resourceSpec(
      convert,
      kind("Lamp", z.object({ mode: field(z.enum(["on", "off"]), { description: "x" }) })),
    );
    const other = z.enum(["dim", "bright"]).meta({ id: "LampMode" });
    expect(() =>
      resourceSpec(convert, kind("Torch", z.object({ mode: field(other, { description: "y" }) }))),
    ).toThrow(
      "the enum type LampMode (from Lamp.mode) has other values; name one of them with .meta({ id })",
    );
  });

  it("names values by their words, spelling out a leading digit", () => {
    expect(enumValueName("npm_registry")).toBe("NpmRegistry");
    expect(enumValueName("ProductPricing")).toBe("ProductPricing");
    expect(enumValueName("2fa_disabled")).toBe("TwoFaDisabled");
    expect(enumValueName("release/eu-1")).toBe("ReleaseEu1");
    expect(() => enumValueName("--")).toThrow('the enum value "--" has no letter or digit to name it by');
    expect([
      singular("GlobalWebhookEvents"),
      singular("Policies"),
      singular("Statuses"),
      singular("Status"),
    ]).toEqual(["GlobalWebhookEvent", "Policy", "Status", "Status"]);
  });
});
