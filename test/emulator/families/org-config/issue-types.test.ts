/**
 * An organisation's issue types (spec, permission matrix "Issue types"; bodies, statuses and the
 * colour enum from the platform's description): create, update, delete, list, uniqueness, the
 * limit per organisation, who may, and 422s that change nothing.
 */
import { describe, expect, it } from "vitest";
import { MAX_ISSUE_TYPES } from "../../../../emulator/families/org-config/config";
import {
  type ApiResponse,
  call,
  expectErrorBody,
  type Json,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const T = "/orgs/acme-eng/issue-types";
const EPIC = { name: "Epic", description: "Multi-week work", is_enabled: true, color: "green" };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function create(body: Record<string, unknown> = EPIC, org = "acme-eng"): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", `/orgs/${org}/issue-types`, { body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function list(org = "acme-eng", token: string = TOKENS.siteAdmin): Promise<Json[]> {
  const response = await call(sandbox.emulator, "GET", `/orgs/${org}/issue-types`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** A 422 of the description's `validation-error-simple`: `errors` are strings. */
function expectInvalid(response: ApiResponse, ...messages: RegExp[]): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  expect(response.body.errors).toHaveLength(messages.length);
  for (const message of messages) {
    expect(response.body.errors).toContainEqual(expect.stringMatching(message));
  }
}

describe("creating", () => {
  it("starts with no issue types", async () => {
    for (const org of ["acme-eng", "acme-ops", "solo"]) expect(await list(org)).toEqual([]);
  });

  it("answers 200 with the type as the description shapes it", async () => {
    const type = await create();
    expect(type).toEqual({
      id: expect.any(Number),
      node_id: expect.any(String),
      name: "Epic",
      description: "Multi-week work",
      color: "green",
      created_at: expect.stringMatching(ISO),
      updated_at: type.created_at,
      is_enabled: true,
    });
    expect(await list()).toEqual([type]);
  });

  it("defaults description and color to null, and trims the name", async () => {
    const type = await create({ name: "  Bug ", is_enabled: false });
    expect(type).toMatchObject({ name: "Bug", description: null, color: null, is_enabled: false });
  });

  it("takes every colour of the description's enum", async () => {
    const colors = ["gray", "blue", "green", "yellow", "orange", "red", "pink", "purple"];
    for (const color of colors) await create({ name: color, is_enabled: true, color });
    expect((await list()).map((t) => t.color)).toEqual(colors);
  });

  it("keeps types per organisation, and works for solo", async () => {
    await create(EPIC, "solo");
    await create(EPIC, "acme-eng");
    expect((await list("solo")).map((t) => t.name)).toEqual(["Epic"]);
    expect(await list("acme-ops")).toEqual([]);
  });

  it("refuses a name already taken in the organisation, whatever its case", async () => {
    await create();
    const before = await stateOf(sandbox.emulator);
    const response = await call(sandbox.emulator, "POST", T, { body: { ...EPIC, name: "EPIC" } });
    expectInvalid(response, /^name "EPIC" has already been taken/);
    expect(await stateOf(sandbox.emulator)).toEqual(before);
    // Another organisation may use it.
    await create({ ...EPIC, name: "EPIC" }, "acme-ops");
  });

  it("names every problem of a body at once, and creates nothing", async () => {
    const before = await stateOf(sandbox.emulator);
    expectInvalid(
      await call(sandbox.emulator, "POST", T, { body: { color: "teal", description: 5 } }),
      /^name is missing$/,
      /^is_enabled is missing$/,
      /^description must be a string or null$/,
      /^color must be one of gray, blue, green, yellow, orange, red, pink, purple$/,
    );
    expectInvalid(
      await call(sandbox.emulator, "POST", T, { body: { name: "  ", is_enabled: "yes" } }),
      /^name must be a non-empty string$/,
      /^is_enabled must be true or false$/,
    );
    expectInvalid(
      await call(sandbox.emulator, "POST", T, { body: { name: "x".repeat(256), is_enabled: true } }),
      /^name is too long \(at most 255 characters\)$/,
    );
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const response = await call(sandbox.emulator, "POST", T, { rawBody: "{" });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, "Problems parsing JSON");
  });

  it(`holds at most ${MAX_ISSUE_TYPES} types per organisation`, async () => {
    for (let i = 0; i < MAX_ISSUE_TYPES; i++) await create({ name: `Type ${i}`, is_enabled: true });
    const before = await stateOf(sandbox.emulator);
    expectInvalid(
      await call(sandbox.emulator, "POST", T, { body: { name: "One more", is_enabled: true } }),
      /at most 25 issue types/,
    );
    expect(await stateOf(sandbox.emulator)).toEqual(before);
    await create({ name: "Elsewhere", is_enabled: true }, "acme-ops");
  });
});

describe("updating", () => {
  it("replaces name and is_enabled, keeps omitted description and color, clears them with null", async () => {
    const type = await create();
    const renamed = await call(sandbox.emulator, "PUT", `${T}/${type.id}`, {
      body: { name: "Initiative", is_enabled: false },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      id: type.id,
      node_id: type.node_id,
      name: "Initiative",
      description: "Multi-week work",
      color: "green",
      is_enabled: false,
      created_at: type.created_at,
    });
    const cleared = await call(sandbox.emulator, "PUT", `${T}/${type.id}`, {
      body: { name: "Initiative", is_enabled: false, description: null, color: null },
    });
    expect(cleared.body).toMatchObject({ description: null, color: null });
    expect(await list()).toEqual([cleared.body]);
  });

  it("lets a type keep its own name, in another case too", async () => {
    const type = await create();
    const response = await call(sandbox.emulator, "PUT", `${T}/${type.id}`, {
      body: { ...EPIC, name: "epic" },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.name).toBe("epic");
  });

  it("refuses another type's name, and a body without the required fields, changing nothing", async () => {
    await create();
    const bug = await create({ name: "Bug", is_enabled: true });
    const before = await stateOf(sandbox.emulator);
    expectInvalid(
      await call(sandbox.emulator, "PUT", `${T}/${bug.id}`, { body: { name: "epic", is_enabled: true } }),
      /^name "epic" has already been taken/,
    );
    expectInvalid(
      await call(sandbox.emulator, "PUT", `${T}/${bug.id}`, { body: { color: "red" } }),
      /^name is missing$/,
      /^is_enabled is missing$/,
    );
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("is not refused by the limit", async () => {
    const types: Json[] = [];
    for (let i = 0; i < MAX_ISSUE_TYPES; i++)
      types.push(await create({ name: `Type ${i}`, is_enabled: true }));
    const response = await call(sandbox.emulator, "PUT", `${T}/${types[0].id}`, {
      body: { name: "Renamed", is_enabled: true },
    });
    expect(response.status, response.text).toBe(200);
  });
});

describe("deleting", () => {
  it("answers 204 and removes the type; then the type is a 404", async () => {
    const type = await create();
    const kept = await create({ name: "Bug", is_enabled: true });
    const response = await call(sandbox.emulator, "DELETE", `${T}/${type.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await list()).toEqual([kept]);
    expect((await call(sandbox.emulator, "DELETE", `${T}/${type.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "PUT", `${T}/${type.id}`, { body: EPIC })).status).toBe(404);
    // The name is free again.
    await create();
  });
});

describe("not found", () => {
  it("answers 404 for an unknown organisation, an unknown id, another organisation's type, or a malformed id", async () => {
    const type = await create();
    const paths = [
      ["GET", "/orgs/nowhere/issue-types"],
      ["POST", "/orgs/nowhere/issue-types"],
      ["PUT", `/orgs/nowhere/issue-types/${type.id}`],
      ["PUT", `${T}/999999`],
      ["PUT", `/orgs/acme-ops/issue-types/${type.id}`],
      ["DELETE", `/orgs/acme-ops/issue-types/${type.id}`],
      ["DELETE", `${T}/0x${type.id.toString(16)}`],
      ["DELETE", `${T}/abc`],
    ];
    for (const [method, path] of paths) {
      const response = await call(sandbox.emulator, method as string, path as string, {
        ...(method === "GET" ? {} : { body: EPIC }),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    expect(await list()).toEqual([type]);
  });
});

describe("who may", () => {
  it("lets members read with read:org; outsiders and tokens without it get 403", async () => {
    const type = await create();
    expect(await list("acme-eng", TOKENS.member)).toEqual([type]);
    const outsider = await call(sandbox.emulator, "GET", "/orgs/acme-ops/issue-types", {
      token: TOKENS.member,
    });
    expect(outsider.status).toBe(403);
    expectErrorBody(outsider.body, "Must be a member of the organization to read issue types");
    const noScopes = await call(sandbox.emulator, "GET", T, { token: TOKENS.noScopes });
    expect(noScopes.status).toBe(403);
    expect(noScopes.headers.get("x-accepted-service-permissions")).toBe("issue_types=read");
    expect(noScopes.headers.get("x-accepted-oauth-scopes")).toBe("read:org");
  });

  it("lets only owners write, changing nothing when refused", async () => {
    const type = await create();
    const before = await stateOf(sandbox.emulator);
    const attempts = [
      ["POST", T, TOKENS.member],
      ["PUT", `${T}/${type.id}`, TOKENS.member],
      ["DELETE", `${T}/${type.id}`, TOKENS.member],
      ["POST", "/orgs/acme-ops/issue-types", TOKENS.owner],
      ["POST", T, TOKENS.install],
    ] as const;
    for (const [method, path, token] of attempts) {
      const response = await call(sandbox.emulator, method, path, { token, body: EPIC });
      expect(response.status, `${method} ${path} ${token}`).toBe(403);
      expect(response.headers.get("x-accepted-service-permissions")).toBe("issue_types=write");
    }
    const elsewhere = await call(sandbox.emulator, "POST", "/orgs/acme-ops/issue-types", {
      token: TOKENS.owner,
      body: EPIC,
    });
    expectErrorBody(elsewhere.body, "Must be an organization owner to manage issue types");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("lets the owner's classic token and a fine-grained token with issue_types write", async () => {
    const response = await call(sandbox.emulator, "POST", T, { token: TOKENS.owner, body: EPIC });
    expect(response.status).toBe(200);
    const fineGrained = await call(sandbox.emulator, "POST", "/orgs/solo/issue-types", {
      token: TOKENS.fineGrained,
      body: EPIC,
    });
    expect(fineGrained.status).toBe(200);
  });
});
