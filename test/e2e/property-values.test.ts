/**
 * OrgPropertyValue and RepositoryPropertyValue end to end with the real Pulumi CLI against the
 * sandbox server: create (one PATCH each), a no-change preview with no request, a refresh whose
 * reads share one GET per organisation and per repository, values changed outside Pulumi (drift on
 * value, a reordered multi select is none), a value removed outside Pulumi (drift, set again by
 * up), bad inputs refused at preview naming the field, the server's refusal naming the property,
 * and destroy setting every value to null.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi, takeRequests } from "./pulumi";

const TOKEN = "svcp_siteadmin";

interface Declared {
  name: string;
  kind: "OrgPropertyValue" | "RepositoryPropertyValue";
  args: Record<string, unknown>;
}

const org = (name: string, propertyName: string, value: unknown): Declared => ({
  name,
  kind: "OrgPropertyValue",
  args: { org: "acme-eng", propertyName, value },
});
const repo = (name: string, propertyName: string, value: unknown): Declared => ({
  name,
  kind: "RepositoryPropertyValue",
  args: { owner: "acme-eng", repository: "api", propertyName, value },
});

const DECLARED: Declared[] = [
  org("cost", "cost_center", "cc-1234"),
  org("tier", "tier", "gold"),
  org("regions", "regions", ["eu", "us"]),
  repo("api-tier", "tier", "silver"),
  repo("api-cost", "cost_center", "cc-api"),
];

function programOf(resources: Declared[]): string {
  const lines = resources.map(
    ({ name, kind, args }) =>
      `exports[${JSON.stringify(name)}] = new hosting.${kind}(${JSON.stringify(name)}, ${JSON.stringify(args)}).value;`,
  );
  return `const hosting = require("pulumi-hosting");\n${lines.join("\n")}\n`;
}

let emulator: RunningEmulator;
let program: PulumiProgram;
const figures: Record<string, unknown> = {};

function declare(resources: Declared[]): void {
  writeFileSync(join(program.dir, "index.js"), programOf(resources));
}

/** Requests since the last call, by route template (`PATCH /organizations/{org}/...`). */
function requestsSince(): Record<string, number> {
  const counts = emulator.controls.counts().byRoute;
  emulator.controls.clearLog();
  return counts;
}

/** The server's values: `org:<name>` and `repo:<name>` -> value. */
function serverValues(): Record<string, unknown> {
  const state = emulator.store.state;
  return Object.fromEntries([
    ...state.orgPropertyValues.map((v) => [`org:${v.name}`, v.value]),
    ...state.repoPropertyValues.map((v) => [`repo:${v.name}`, v.value]),
  ]);
}

/** The values in the stack's state: resource name -> {id, value}. */
function stackValues(): Record<string, { id: string | undefined; value: unknown }> {
  const found: Record<string, { id: string | undefined; value: unknown }> = {};
  for (const r of program.resources()) {
    if (!/hosting:(Org|Repository)PropertyValue$/.test(r.type)) continue;
    found[r.urn.split("::").at(-1) ?? ""] = { id: r.id, value: r.outputs?.value ?? null };
  }
  return found;
}

/** Changes values outside Pulumi, as an administrator on the web UI. */
async function setOutside(target: "org" | "repo", properties: unknown[]): Promise<void> {
  const path =
    target === "org"
      ? "/organizations/acme-eng/org-properties/values"
      : "/repos/acme-eng/api/properties/values";
  const response = await fetch(`${emulator.url}${path}`, {
    method: "PATCH",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      "x-service-api-version": target === "org" ? "2026-03-10" : "2022-11-28",
    },
    body: JSON.stringify({ properties }),
  });
  expect(response.status, await response.text()).toBe(204);
}

const ORG_GET = "GET /organizations/{org}/org-properties/values";
const ORG_PATCH = "PATCH /organizations/{org}/org-properties/values";
const REPO_GET = "GET /repos/{owner}/{repo}/properties/values";
const REPO_PATCH = "PATCH /repos/{owner}/{repo}/properties/values";

const CONVERGED = {
  "org:cost_center": "cc-1234",
  "org:tier": "gold",
  "org:regions": ["eu", "us"],
  "repo:tier": "silver",
  "repo:cost_center": "cc-api",
};

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("property-values", programOf(DECLARED));
  await program.initStack(emulator.origin, TOKEN);
});

afterAll(async () => {
  console.log(`property values e2e, API requests per operation: ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("property values end to end", () => {
  it("creates every value with one PATCH each, after a read of its collection", async () => {
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.create = requestsSince();
    const {
      [ORG_PATCH]: orgPatches,
      [REPO_PATCH]: repoPatches,
      ...reads
    } = figures.create as Record<string, number>;
    expect({ orgPatches, repoPatches }).toEqual({ orgPatches: 3, repoPatches: 2 });
    // Each create reads first (a value already set is adopted without a write); reads of one
    // collection in flight together are one GET, so there is at most one per value.
    expect(Object.keys(reads).sort()).toEqual([ORG_GET, REPO_GET].sort());
    expect(reads[ORG_GET]).toBeLessThanOrEqual(3);
    expect(reads[REPO_GET]).toBeLessThanOrEqual(2);
    expect(serverValues()).toEqual(CONVERGED);
    expect(stackValues()).toEqual({
      cost: { id: "acme-eng/cost_center", value: "cc-1234" },
      tier: { id: "acme-eng/tier", value: "gold" },
      regions: { id: "acme-eng/regions", value: ["eu", "us"] },
      "api-tier": { id: "acme-eng/api/tier", value: "silver" },
      "api-cost": { id: "acme-eng/api/cost_center", value: "cc-api" },
    });
    expect(program.stateFile()).not.toContain(TOKEN);
    for (const r of program.resources()) {
      const provider = r.outputs?.__provider;
      if (typeof provider === "string") expect(provider.length).toBeLessThanOrEqual(512);
    }
  });

  it("previews no change with no request; a refresh reads each collection once", async () => {
    const { withoutRefresh: plain, withRefresh: refresh } = await program.noChangePreviews(
      takeRequests(emulator.controls),
    );
    figures.previewWithoutRefresh = plain;
    figures.refresh = refresh;
    expect(plain).toEqual({});
    // Five resources, two collections: one GET per organisation and one per repository.
    expect(refresh).toEqual({ [ORG_GET]: 1, [REPO_GET]: 1 });
  });

  it("does not report a multi select reordered outside Pulumi", async () => {
    await setOutside("org", [{ property_name: "regions", value: ["us", "eu"] }]);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("reports values changed outside Pulumi as drift on value, field by field", async () => {
    await setOutside("org", [
      { property_name: "tier", value: "silver" },
      { property_name: "regions", value: ["apac"] },
    ]);
    await setOutside("repo", [{ property_name: "tier", value: "bronze" }]);
    const drift = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/value\s*:\s*"silver"\s*=>\s*"gold"/);
    expect(drift.output).toMatch(/value\s*:\s*"bronze"\s*=>\s*"silver"/);
    expect(drift.output).toMatch(/"apac"\s*=>\s*"eu"/);
    expect(drift.output).not.toMatch(/propertyName\s*:.*=>/);
    expect(drift.output).toMatch(/3 to update/);
    const refreshOnly = await program.run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code).not.toBe(0);
  });

  it("converges on up, writing only what drifted, and previews clean again", async () => {
    emulator.controls.clearLog();
    // Without the preview `up` runs first, which would refresh (one GET per collection) too.
    await program.ok("up", "--refresh", "--skip-preview", "--yes");
    figures.converge = requestsSince();
    expect(figures.converge).toEqual({ [ORG_GET]: 1, [REPO_GET]: 1, [ORG_PATCH]: 2, [REPO_PATCH]: 1 });
    expect(serverValues()).toEqual(CONVERGED);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("reports a value removed outside Pulumi; refresh records null and up sets it again", async () => {
    await setOutside("org", [{ property_name: "cost_center", value: null }]);
    await setOutside("repo", [{ property_name: "tier", value: null }]);
    const drift = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/value\s*:\s*"cc-1234"/);
    expect(drift.output).toMatch(/2 to update/);
    await program.ok("refresh", "--yes");
    expect(stackValues().cost).toEqual({ id: "acme-eng/cost_center", value: null });
    expect(stackValues()["api-tier"]).toEqual({ id: "acme-eng/api/tier", value: null });
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.restoreRemoved = requestsSince();
    expect(figures.restoreRemoved).toEqual({ [ORG_PATCH]: 1, [REPO_PATCH]: 1 });
    expect(serverValues()).toEqual(CONVERGED);
    expect(stackValues().cost?.value).toBe("cc-1234");
  });

  it("refuses bad inputs at preview, naming the field, with no request", async () => {
    emulator.controls.clearLog();
    // The engine stops at the first resource that fails check: one bad resource per preview.
    declare([...DECLARED, org("empty", "cost_center", "")]);
    const empty = await program.run("preview");
    expect(empty.code).not.toBe(0);
    expect(empty.output).toContain("value must not be an empty string; use null to remove the value");
    declare([...DECLARED, repo("spaced", "cost center", "x")]);
    const spaced = await program.run("preview");
    expect(spaced.code).not.toBe(0);
    expect(spaced.output).toMatch(/propertyName may hold only letters, digits/);
    declare([...DECLARED, org("number", "tier", 3)]);
    const number = await program.run("preview");
    expect(number.code).not.toBe(0);
    expect(number.output).toContain(
      "value must be a string, a list of strings (a multi select property), or null",
    );
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("fails up with the server's refusal naming the property, and for solo, changing nothing", async () => {
    declare([...DECLARED, org("platinum", "tier", "platinum")]);
    const platinum = await program.run("up", "--yes");
    expect(platinum.code).not.toBe(0);
    expect(platinum.output).toMatch(/tier: \\?"platinum\\?" is not one of gold, silver, bronze/);
    declare([
      ...DECLARED,
      { name: "solo", kind: "OrgPropertyValue", args: { org: "solo", propertyName: "tier", value: "gold" } },
    ]);
    const solo = await program.run("up", "--yes");
    expect(solo.code).not.toBe(0);
    expect(solo.output).toContain("there is no organisation solo, or it does not belong to an enterprise");
    expect(serverValues()).toEqual(CONVERGED);
    expect(Object.keys(stackValues()).sort()).toEqual(["api-cost", "api-tier", "cost", "regions", "tier"]);
  });

  it("destroy sets every value to null", async () => {
    declare(DECLARED);
    emulator.controls.clearLog();
    await program.ok("destroy", "--yes");
    figures.destroy = requestsSince();
    expect(figures.destroy).toEqual({ [ORG_PATCH]: 3, [REPO_PATCH]: 2 });
    expect(serverValues()).toEqual({});
    expect(stackValues()).toEqual({});
  });
});
