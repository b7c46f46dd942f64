/**
 * Organisation private registries (spec, endpoints "Organization private registries"; the create
 * body from the platform's public REST API): the organisation's public key and its rotation, values
 * sealed with libsodium and opened by the server, the update rules, and the controls.
 */
import { describe, expect, it } from "vitest";
import { seal } from "../../../../provider/internal/sealed-box";
import {
  type ApiResponse,
  call,
  control,
  expectErrorBody,
  type Json,
  parseLink,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const R = "/orgs/acme-eng/private-registries";
const VALUE = "registry-token-7d1e";

async function publicKey(org = "acme-eng"): Promise<{ key_id: string; key: string }> {
  const response = await call(sandbox.emulator, "GET", `/orgs/${org}/private-registries/public-key`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function sealed(value: string, org = "acme-eng") {
  const key = await publicKey(org);
  return { encrypted_value: await seal(value, key.key), key_id: key.key_id };
}

/** Creates a registry with `value` sealed, or with none (`null`: OIDC). */
async function create(body: Record<string, unknown>, value: string | null = VALUE): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", R, {
    body: { ...body, ...(value === null ? {} : await sealed(value)) },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const NPM = { registry_type: "npm_registry", url: "https://npm.example.com", visibility: "all" };
const AZURE = { ...NPM, auth_type: "oidc_azure", tenant_id: "tenant-1", client_id: "client-1" };

async function heldValue(name: string): Promise<unknown> {
  const response = await control(sandbox.emulator, "GET", `${R}/${name}/value`);
  expect(response.status, response.text).toBe(200);
  return response.body.value;
}

function expectInvalid(response: ApiResponse, field: string, code = "invalid"): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  expect(response.body.errors).toContainEqual(
    expect.objectContaining({ resource: "PrivateRegistry", field, code }),
  );
}

describe("public key", () => {
  it("is a base64 Curve25519 key with an id, the same until rotated", async () => {
    const first = await publicKey();
    expect(Buffer.from(first.key, "base64")).toHaveLength(32);
    expect(first.key_id).toMatch(/^\d+$/);
    expect(await publicKey()).toEqual(first);
    const rotated = await control(sandbox.emulator, "POST", `${R}/public-key/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key_id).not.toBe(first.key_id);
    expect(await publicKey()).toEqual(rotated.body);
  });

  it("is logged under its own route, not as a registry named public-key", async () => {
    await control(sandbox.emulator, "DELETE", "/requests");
    await publicKey();
    const log = (await control(sandbox.emulator, "GET", "/requests")).body.requests;
    expect(log.map((r: Json) => r.route)).toEqual(["/orgs/{org}/private-registries/public-key"]);
  });

  it("differs between organisations", async () => {
    expect((await publicKey("acme-ops")).key).not.toBe((await publicKey()).key);
  });

  it("is a 404 for an unknown organisation, through the API and the control", async () => {
    expect((await call(sandbox.emulator, "GET", "/orgs/nope/private-registries/public-key")).status).toBe(
      404,
    );
    expect(
      (await control(sandbox.emulator, "POST", "/orgs/nope/private-registries/public-key/rotate")).status,
    ).toBe(404);
  });
});

describe("POST /orgs/{org}/private-registries", () => {
  it("opens the sealed value, keeps exactly it, and answers 201 without it", async () => {
    const response = await call(sandbox.emulator, "POST", R, {
      body: { ...NPM, username: "ci", replaces_base: true, ...(await sealed(VALUE)) },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      name: "NPM_REGISTRY_SECRET",
      registry_type: "npm_registry",
      auth_type: "token",
      url: "https://npm.example.com",
      username: "ci",
      replaces_base: true,
      visibility: "all",
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(response.text).not.toContain(VALUE);
    expect(await heldValue("NPM_REGISTRY_SECRET")).toBe(VALUE);
  });

  it("names the registry from its type, with a suffix for a second one of that type", async () => {
    expect((await create({ ...NPM, registry_type: "maven_repository" })).name).toBe(
      "MAVEN_REPOSITORY_SECRET",
    );
    expect((await create(NPM)).name).toBe("NPM_REGISTRY_SECRET");
    expect((await create({ ...NPM, url: "https://npm2.example.com" })).name).toBe("NPM_REGISTRY_SECRET_2");
  });

  it("keeps unicode values byte for byte", async () => {
    await create(NPM, "pässwörd-🔑");
    expect(await heldValue("NPM_REGISTRY_SECRET")).toBe("pässwörd-🔑");
  });

  it("refuses a stale key_id after a rotation, naming key_id", async () => {
    const old = await sealed(VALUE);
    await control(sandbox.emulator, "POST", `${R}/public-key/rotate`);
    expectInvalid(await call(sandbox.emulator, "POST", R, { body: { ...NPM, ...old } }), "key_id");
  });

  it("refuses a value sealed for another key, naming encrypted_value", async () => {
    const other = await publicKey("acme-ops");
    const current = await publicKey();
    const body = { ...NPM, encrypted_value: await seal(VALUE, other.key), key_id: current.key_id };
    expectInvalid(await call(sandbox.emulator, "POST", R, { body }), "encrypted_value");
  });

  it.each([
    ["bytes that do not open", Buffer.alloc(80, 7).toString("base64")],
    ["too few bytes", "AAAA"],
    ["not base64", "!!!not-base64!!!"],
    ["not a string", 42],
  ])("refuses %s, naming encrypted_value", async (_, encrypted) => {
    const { key_id } = await publicKey();
    const response = await call(sandbox.emulator, "POST", R, {
      body: { ...NPM, encrypted_value: encrypted, key_id },
    });
    expectInvalid(response, "encrypted_value");
  });

  it.each(["registry_type", "url", "visibility"])("needs %s", async (field) => {
    const body: Record<string, unknown> = { ...NPM, ...(await sealed(VALUE)) };
    delete body[field];
    expectInvalid(await call(sandbox.emulator, "POST", R, { body }), field, "missing_field");
  });

  it.each(["encrypted_value", "key_id"])("needs %s with auth_type token", async (field) => {
    const body: Record<string, unknown> = { ...NPM, ...(await sealed(VALUE)) };
    delete body[field];
    expectInvalid(await call(sandbox.emulator, "POST", R, { body }), field, "missing_field");
  });

  it.each([
    ["registry_type", { registry_type: "apt_repository" }],
    ["visibility", { visibility: "internal" }],
    ["auth_type", { auth_type: "oidc_github" }],
    ["url", { url: "ftp://npm.example.com" }],
    ["username", { username: "" }],
    ["replaces_base", { replaces_base: "yes" }],
  ])("refuses a bad %s", async (field, change) => {
    const response = await call(sandbox.emulator, "POST", R, {
      body: { ...NPM, ...change, ...(await sealed(VALUE)) },
    });
    expectInvalid(response, field);
  });

  it("takes selected_repository_ids only with visibility selected, and only the organisation's", async () => {
    const body = { ...NPM, ...(await sealed(VALUE)) };
    const notSelected = await call(sandbox.emulator, "POST", R, {
      body: { ...body, selected_repository_ids: [1000] },
    });
    expectInvalid(notSelected, "selected_repository_ids");
    const foreign = await call(sandbox.emulator, "POST", R, {
      body: { ...body, visibility: "selected", selected_repository_ids: [1002] },
    });
    expectInvalid(foreign, "selected_repository_ids");
    const made = await create({
      ...NPM,
      visibility: "selected",
      selected_repository_ids: [1000, 1001, 1000],
    });
    expect(made.selected_repository_ids).toEqual([1000, 1001]);
  });

  it("creates OIDC registries without a value, with their settings", async () => {
    const made = await create(AZURE, null);
    expect(made).toMatchObject({ auth_type: "oidc_azure", tenant_id: "tenant-1", client_id: "client-1" });
    expect(await heldValue(made.name)).toBeNull();
  });

  it("refuses a value with an OIDC auth type", async () => {
    const response = await call(sandbox.emulator, "POST", R, {
      body: { ...AZURE, ...(await sealed(VALUE)) },
    });
    expectInvalid(response, "encrypted_value");
  });

  it.each([
    ["oidc_azure", { tenant_id: "t" }, "client_id"],
    ["oidc_aws", { aws_region: "eu-west-1", account_id: "1", role_name: "r", domain: "d" }, "domain_owner"],
    ["oidc_jfrog", {}, "jfrog_oidc_provider_name"],
    ["oidc_cloudsmith", { namespace: "n", service_slug: "s" }, "audience"],
    ["oidc_gcp", { audience: "a" }, "workload_identity_provider"],
  ])("%s needs its settings (%j lacks %s)", async (authType, settings, missing) => {
    const response = await call(sandbox.emulator, "POST", R, {
      body: { ...NPM, auth_type: authType, ...settings },
    });
    expectInvalid(response, missing, "missing_field");
  });

  it("refuses a setting of another auth type", async () => {
    const response = await call(sandbox.emulator, "POST", R, { body: { ...AZURE, service_slug: "x" } });
    expectInvalid(response, "service_slug");
  });

  it("is a 404 for an unknown organisation and a 403 for a member who is not an owner", async () => {
    expect(
      (await call(sandbox.emulator, "POST", "/orgs/nope/private-registries", { body: AZURE })).status,
    ).toBe(404);
    const member = await call(sandbox.emulator, "POST", R, { body: AZURE, token: TOKENS.member });
    expect(member.status).toBe(403);
  });
});

describe("GET", () => {
  it("lists configurations with total_count and pages, never the value", async () => {
    await create(NPM);
    await create({ ...NPM, url: "https://npm2.example.com" });
    await create({ ...NPM, registry_type: "docker_registry" });
    const page = await call(sandbox.emulator, "GET", `${R}?per_page=2`);
    expect(page.status).toBe(200);
    expect(page.body.total_count).toBe(3);
    expect(page.body.configurations.map((r: Json) => r.name)).toEqual([
      "NPM_REGISTRY_SECRET",
      "NPM_REGISTRY_SECRET_2",
    ]);
    expect(parseLink(page.headers.get("link")).next).toContain("page=2");
    expect(page.text).not.toContain(VALUE);
  });

  it("reads one by name, and 404s for an unknown name", async () => {
    const made = await create(NPM);
    const one = await call(sandbox.emulator, "GET", `${R}/${made.name}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(made);
    expect((await call(sandbox.emulator, "GET", `${R}/NOPE_SECRET`)).status).toBe(404);
  });
});

describe("PATCH /orgs/{org}/private-registries/{secret_name}", () => {
  it("answers 204 with no body and applies the fields sent", async () => {
    const made = await create({ ...NPM, username: "ci" });
    const response = await call(sandbox.emulator, "PATCH", `${R}/${made.name}`, {
      body: { url: "https://npm3.example.com", visibility: "private", username: null },
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    const read = (await call(sandbox.emulator, "GET", `${R}/${made.name}`)).body;
    expect(read).toMatchObject({ url: "https://npm3.example.com", visibility: "private", username: null });
    expect(await heldValue(made.name)).toBe(VALUE);
  });

  it("replaces the value with a newly sealed one", async () => {
    const made = await create(NPM);
    const response = await call(sandbox.emulator, "PATCH", `${R}/${made.name}`, {
      body: await sealed("rotated"),
    });
    expect(response.status).toBe(204);
    expect(await heldValue(made.name)).toBe("rotated");
  });

  it("needs encrypted_value and key_id together", async () => {
    const made = await create(NPM);
    const { encrypted_value } = await sealed("x");
    expectInvalid(
      await call(sandbox.emulator, "PATCH", `${R}/${made.name}`, { body: { encrypted_value } }),
      "key_id",
      "missing_field",
    );
  });

  it("refuses a changed auth_type and accepts the same one", async () => {
    const made = await create(NPM);
    expectInvalid(
      await call(sandbox.emulator, "PATCH", `${R}/${made.name}`, {
        body: { auth_type: "username_password" },
      }),
      "auth_type",
    );
    expect(
      (await call(sandbox.emulator, "PATCH", `${R}/${made.name}`, { body: { auth_type: "token" } })).status,
    ).toBe(204);
  });

  it("takes selected_repository_ids only when the registry is or becomes selected, and clears them on leaving", async () => {
    const made = await create(NPM);
    const path = `${R}/${made.name}`;
    expectInvalid(
      await call(sandbox.emulator, "PATCH", path, { body: { selected_repository_ids: [1000] } }),
      "selected_repository_ids",
    );
    await call(sandbox.emulator, "PATCH", path, {
      body: { visibility: "selected", selected_repository_ids: [1001] },
    });
    expect((await call(sandbox.emulator, "GET", path)).body.selected_repository_ids).toEqual([1001]);
    await call(sandbox.emulator, "PATCH", path, { body: { visibility: "all" } });
    await call(sandbox.emulator, "PATCH", path, { body: { visibility: "selected" } });
    expect((await call(sandbox.emulator, "GET", path)).body.selected_repository_ids).toEqual([]);
  });

  it("updates OIDC settings, clears an optional one with null, and keeps required ones", async () => {
    const made = await create(
      { ...NPM, auth_type: "oidc_gcp", workload_identity_provider: "wip", audience: "a" },
      null,
    );
    const path = `${R}/${made.name}`;
    expect(
      (await call(sandbox.emulator, "PATCH", path, { body: { audience: null, service_account: "sa" } }))
        .status,
    ).toBe(204);
    const read = (await call(sandbox.emulator, "GET", path)).body;
    expect(read).toMatchObject({ workload_identity_provider: "wip", service_account: "sa" });
    expect(read.audience).toBeUndefined();
    expectInvalid(
      await call(sandbox.emulator, "PATCH", path, { body: { workload_identity_provider: null } }),
      "workload_identity_provider",
      "missing_field",
    );
    expectInvalid(
      await call(sandbox.emulator, "PATCH", path, { body: await sealed("x") }),
      "encrypted_value",
    );
  });

  it("changes nothing when refused", async () => {
    const made = await create(NPM);
    const before = (await call(sandbox.emulator, "GET", `${R}/${made.name}`)).body;
    const response = await call(sandbox.emulator, "PATCH", `${R}/${made.name}`, {
      body: { url: "https://changed.example.com", ...(await sealed("new")), key_id: "1" },
    });
    expectInvalid(response, "key_id");
    expect((await call(sandbox.emulator, "GET", `${R}/${made.name}`)).body).toEqual(before);
    expect(await heldValue(made.name)).toBe(VALUE);
  });

  it("is a 404 for an unknown name", async () => {
    expect((await call(sandbox.emulator, "PATCH", `${R}/NOPE_SECRET`, { body: {} })).status).toBe(404);
  });
});

describe("DELETE /orgs/{org}/private-registries/{secret_name}", () => {
  it("deletes (204), then 404s", async () => {
    const made = await create(NPM);
    expect((await call(sandbox.emulator, "DELETE", `${R}/${made.name}`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${R}/${made.name}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${R}/${made.name}`)).status).toBe(404);
    expect((await control(sandbox.emulator, "GET", `${R}/${made.name}/value`)).status).toBe(404);
  });
});
