/**
 * Custom property values over HTTP: organisation values (API version 2026-03-10, organisations of
 * an enterprise, the enterprise's definitions) and repository values (the organisation's
 * repository definitions): listing, setting one property without touching the others, removing
 * with null, and every refusal naming the property.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, call, type Json, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

const V2026 = { "x-service-api-version": "2026-03-10" };
const ORG = "/organizations/acme-eng/org-properties/values";
const REPO = "/repos/acme-eng/api/properties/values";

function orgCall(method: string, path: string, body?: unknown, token: string = TOKENS.siteAdmin) {
  return call(sandbox.emulator, method, path, {
    token,
    headers: V2026,
    ...(body === undefined ? {} : { body }),
  });
}

const patchOrg = (properties: unknown, path = ORG, token?: string) =>
  orgCall("PATCH", path, { properties }, token);

/** Asserts a 422 whose errors name `field`, with a message containing `says`. */
function expectRefused(response: ApiResponse, field: string, says: string): void {
  expect(response.status, response.text).toBe(422);
  expect(response.body.message).toBe("Validation Failed");
  const item = (response.body.errors as Json[]).find((e) => e.field === field);
  expect(item, response.text).toBeDefined();
  expect(item.resource).toBe("CustomPropertyValue");
  expect(String(item.message ?? "")).toContain(says);
}

describe("organisation property values", () => {
  it("starts empty, sets values, and lists them in the order of the definitions", async () => {
    expect((await orgCall("GET", ORG)).body).toEqual([]);
    const set = await patchOrg([
      { property_name: "regions", value: ["us", "eu", "us"] },
      { property_name: "cost_center", value: "cc-42" },
    ]);
    expect(set.status, set.text).toBe(204);
    expect(set.text).toBe("");
    const listed = await orgCall("GET", ORG);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { property_name: "cost_center", value: "cc-42" },
      { property_name: "regions", value: ["us", "eu"] },
    ]);
  });

  it("sets only the properties named, and null removes a value", async () => {
    await patchOrg([
      { property_name: "tier", value: "gold" },
      { property_name: "cost_center", value: "cc-1" },
    ]);
    expect((await patchOrg([{ property_name: "tier", value: "silver" }])).status).toBe(204);
    expect((await orgCall("GET", ORG)).body).toEqual([
      { property_name: "cost_center", value: "cc-1" },
      { property_name: "tier", value: "silver" },
    ]);
    expect((await patchOrg([{ property_name: "cost_center", value: null }])).status).toBe(204);
    expect((await orgCall("GET", ORG)).body).toEqual([{ property_name: "tier", value: "silver" }]);
    // Removing a value that is not there is no error.
    expect((await patchOrg([{ property_name: "cost_center", value: null }])).status).toBe(204);
    expect(sandbox.emulator.store.state.orgPropertyValues).toEqual([
      { target: "acme-eng", name: "tier", value: "silver" },
    ]);
  });

  it("keeps each organisation's values apart and reads names case-insensitively", async () => {
    await patchOrg([{ property_name: "tier", value: "gold" }]);
    await patchOrg(
      [{ property_name: "tier", value: "bronze" }],
      "/organizations/ACME-OPS/org-properties/values",
    );
    expect((await orgCall("GET", "/organizations/Acme-Eng/org-properties/values")).body).toEqual([
      { property_name: "tier", value: "gold" },
    ]);
    expect((await orgCall("GET", "/organizations/acme-ops/org-properties/values")).body).toEqual([
      { property_name: "tier", value: "bronze" },
    ]);
  });

  it.each([
    ["no version", {}],
    ["version 2022-11-28", { "x-service-api-version": "2022-11-28" }],
  ])("exists only in API version 2026-03-10 (%s: 400)", async (_, headers) => {
    for (const method of ["GET", "PATCH"]) {
      const response = await call(sandbox.emulator, method, ORG, {
        headers,
        ...(method === "PATCH" ? { body: { properties: [] } } : {}),
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body.message).toContain("X-Service-Api-Version: 2026-03-10");
    }
    expect(sandbox.emulator.store.state.orgPropertyValues).toEqual([]);
    // Authentication comes first: an anonymous request learns nothing about versions.
    expect((await call(sandbox.emulator, "GET", ORG, { token: null })).status).toBe(401);
  });

  it("answers 404 for an organisation outside any enterprise (solo) and for an unknown one", async () => {
    const solo = "/organizations/solo/org-properties/values";
    expect((await orgCall("GET", solo)).status).toBe(404);
    expect((await patchOrg([{ property_name: "tier", value: "gold" }], solo)).status).toBe(404);
    expect((await orgCall("GET", "/organizations/nope/org-properties/values")).status).toBe(404);
    expect(sandbox.emulator.store.state.orgPropertyValues).toEqual([]);
  });

  it("is for organisation admins: a member with read:org gets 403", async () => {
    const read = await orgCall("GET", ORG, undefined, TOKENS.member);
    expect(read.status).toBe(403);
    expect(read.body.message).toContain("admin of acme-eng");
    const write = await patchOrg([{ property_name: "tier", value: "gold" }], ORG, TOKENS.owner);
    expect(write.status).toBe(204);
    expect(read.headers.get("x-accepted-service-permissions")).toBe(
      "custom_properties_for_organizations=read",
    );
    expect(write.headers.get("x-accepted-service-permissions")).toBe(
      "custom_properties_for_organizations=write",
    );
  });

  it.each([
    [
      [{ property_name: "tier", value: "platinum" }],
      "properties[0].value",
      'tier: "platinum" is not one of gold, silver, bronze',
    ],
    [[{ property_name: "tier", value: ["gold"] }], "properties[0].value", "tier takes one value (a string)"],
    [[{ property_name: "cost_center", value: 42 }], "properties[0].value", "cost_center takes a string"],
    [
      [{ property_name: "cost_center", value: "" }],
      "properties[0].value",
      "cost_center: send null, not an empty string",
    ],
    [
      [{ property_name: "regions", value: "eu" }],
      "properties[0].value",
      "regions takes a list of values from eu, us, apac",
    ],
    [
      [{ property_name: "regions", value: ["eu", "mars"] }],
      "properties[0].value",
      'regions: "mars" is not one of eu, us, apac',
    ],
    [
      [{ property_name: "regions", value: [] }],
      "properties[0].value",
      "regions: send null, not an empty list",
    ],
    [
      [{ property_name: "colour", value: "red" }],
      "properties[0].property_name",
      "colour is not a custom property of the enterprise acme",
    ],
    [[{ property_name: "tier" }], "properties[0].value", "tier: value is missing"],
    [[{ value: "gold" }], "properties[0].property_name", ""],
    [["tier"], "properties[0]", "must be an object"],
    [
      [
        { property_name: "tier", value: "gold" },
        { property_name: "tier", value: "silver" },
      ],
      "properties[1].property_name",
      "tier is given more than once",
    ],
  ])("refuses %j with a 422 naming the property", async (properties, field, says) => {
    expectRefused(await patchOrg(properties), field, says);
    expect(sandbox.emulator.store.state.orgPropertyValues).toEqual([]);
  });

  it("applies nothing when any item is invalid, and reports every invalid item", async () => {
    const response = await patchOrg([
      { property_name: "cost_center", value: "cc-9" },
      { property_name: "tier", value: "platinum" },
      { property_name: "regions", value: ["mars"] },
    ]);
    expectRefused(response, "properties[1].value", "tier");
    expectRefused(response, "properties[2].value", "regions");
    expect((await orgCall("GET", ORG)).body).toEqual([]);
  });

  it("requires properties, as a list", async () => {
    const missing = await orgCall("PATCH", ORG, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      {
        resource: "CustomPropertyValue",
        field: "properties",
        code: "missing_field",
        message: "properties is missing",
      },
    ]);
    expectRefused(await orgCall("PATCH", ORG, { properties: "tier" }), "properties", "must be a list");
  });
});

describe("repository property values", () => {
  it("sets and lists values against the organisation's repository properties (2022-11-28)", async () => {
    expect((await call(sandbox.emulator, "GET", REPO)).body).toEqual([]);
    const set = await call(sandbox.emulator, "PATCH", REPO, {
      body: {
        properties: [
          { property_name: "tier", value: "gold" },
          { property_name: "cost_center", value: "cc-7" },
        ],
      },
    });
    expect(set.status, set.text).toBe(204);
    const listed = await call(sandbox.emulator, "GET", REPO);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { property_name: "cost_center", value: "cc-7" },
      { property_name: "tier", value: "gold" },
    ]);
    await call(sandbox.emulator, "PATCH", REPO, {
      body: { properties: [{ property_name: "tier", value: null }] },
    });
    expect((await call(sandbox.emulator, "GET", "/repos/ACME-ENG/API/properties/values")).body).toEqual([
      { property_name: "cost_center", value: "cc-7" },
    ]);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/web/properties/values")).body).toEqual([]);
  });

  it("refuses properties the organisation does not define, naming them", async () => {
    const regions = await call(sandbox.emulator, "PATCH", REPO, {
      body: { properties: [{ property_name: "regions", value: ["eu"] }] },
    });
    expectRefused(
      regions,
      "properties[0].property_name",
      "regions is not a custom property of the organisation acme-eng",
    );
    const ops = await call(sandbox.emulator, "PATCH", "/repos/acme-ops/infra/properties/values", {
      body: { properties: [{ property_name: "tier", value: "gold" }] },
    });
    expectRefused(
      ops,
      "properties[0].property_name",
      "tier is not a custom property of the organisation acme-ops",
    );
    const bad = await call(sandbox.emulator, "PATCH", REPO, {
      body: { properties: [{ property_name: "tier", value: "platinum" }] },
    });
    expectRefused(bad, "properties[0].value", 'tier: "platinum" is not one of gold, silver, bronze');
  });

  it("is read by whoever sees the repository: public ones without a token, private ones hidden", async () => {
    const anonymous = { token: null };
    expect(
      (await call(sandbox.emulator, "GET", "/repos/acme-eng/web/properties/values", anonymous)).status,
    ).toBe(200);
    expect((await call(sandbox.emulator, "GET", REPO, anonymous)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", REPO, { token: TOKENS.member })).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", REPO, { token: TOKENS.noScopes })).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/nope/properties/values")).status).toBe(404);
  });

  it("is written by the repository's admins: a member gets 404, a token without repo 403", async () => {
    const body = { properties: [{ property_name: "tier", value: "gold" }] };
    expect((await call(sandbox.emulator, "PATCH", REPO, { body, token: TOKENS.member })).status).toBe(404);
    expect((await call(sandbox.emulator, "PATCH", REPO, { body, token: TOKENS.noScopes })).status).toBe(403);
    const owner = await call(sandbox.emulator, "PATCH", REPO, { body, token: TOKENS.owner });
    expect(owner.status).toBe(204);
    expect(owner.headers.get("x-accepted-service-permissions")).toBe("repository_custom_properties=write");
    expect(sandbox.emulator.store.state.repoPropertyValues).toEqual([
      { target: "acme-eng/api", name: "tier", value: "gold" },
    ]);
  });
});
