/**
 * Actions secrets and variables of organisations, repositories and environments (the platform's
 * published description; docs/sandbox.md, "Actions secrets and variables"): each scope's public key
 * and its rotation, values sealed with libsodium and opened by the server, names as the platform
 * keeps them, statuses, organisation visibility and selected repositories, environments that do
 * not exist, the controls, the fixture's secrets, and what deleting an environment removes.
 */
import { describe, expect, it } from "vitest";
import { sealBox } from "../../../../api/sealed-box";
import { freshState } from "../../../../emulator/families";
import { dropEnvironmentActions } from "../../../../emulator/families/actions";
import {
  ACTIONS_SCOPES,
  type ApiResponse,
  call,
  control,
  expectErrorBody,
  parseLink,
  putSecret,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const [ORG, REPO, ENV] = ACTIONS_SCOPES;
const VALUE = "s3cret-value-4f1a";

const get = (path: string, token?: string) => call(sandbox.emulator, "GET", path, token ? { token } : {});
const put = (path: string, body: unknown) => call(sandbox.emulator, "PUT", path, { body });
const post = (path: string, body: unknown) => call(sandbox.emulator, "POST", path, { body });
const patch = (path: string, body: unknown) => call(sandbox.emulator, "PATCH", path, { body });
const del = (path: string) => call(sandbox.emulator, "DELETE", path);

async function publicKey(scope: string): Promise<{ key_id: string; key: string }> {
  const response = await get(`${scope}/secrets/public-key`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function sealed(scope: string, value: string) {
  const key = await publicKey(scope);
  return { encrypted_value: await sealBox(value, key.key), key_id: key.key_id };
}

async function heldValue(scope: string, name: string): Promise<string> {
  const response = await control(sandbox.emulator, "GET", `${scope}/secrets/${name}/value`);
  expect(response.status, response.text).toBe(200);
  return response.body.value;
}

function expectInvalid(response: ApiResponse, resource: string, field: string, code = "invalid"): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  expect(response.body.errors).toContainEqual(expect.objectContaining({ resource, field, code }));
}

const orgSecret = (extra: Record<string, unknown> = {}) => ({ visibility: "private", ...extra });

describe("the fixture", () => {
  it("holds an organisation secret of acme-eng and a repository secret of acme-eng/api, and no variables", async () => {
    const org = await get(`${ORG}/secrets`);
    expect(org.body).toEqual({
      total_count: 1,
      secrets: [
        {
          name: "NPM_TOKEN",
          created_at: "2026-01-05T10:00:00Z",
          updated_at: "2026-01-05T10:00:00Z",
          visibility: "private",
        },
      ],
    });
    const repo = await get(`${REPO}/secrets`);
    expect(repo.body.secrets.map((s: { name: string }) => s.name)).toEqual(["DEPLOY_KEY"]);
    expect(await heldValue(REPO, "DEPLOY_KEY")).toBe("fixture-deploy-key");
    expect((await get(`${ENV}/secrets`)).body).toEqual({ total_count: 0, secrets: [] });
    expect((await get(`${ORG}/variables`)).body).toEqual({ total_count: 0, variables: [] });
  });
});

describe("public keys", () => {
  it("are one per scope, stable until rotated, and values sealed for an old one are refused naming key_id", async () => {
    const keys = await Promise.all(ACTIONS_SCOPES.map(publicKey));
    expect(new Set(keys.map((k) => k.key_id)).size).toBe(3);
    expect(await publicKey(REPO)).toEqual(keys[1]);
    const before = await sealed(REPO, VALUE);

    const rotated = await control(sandbox.emulator, "POST", `${REPO}/secrets/public-key/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key_id).not.toBe(before.key_id);
    expect(await publicKey(REPO)).toEqual(rotated.body);
    // The other scopes keep theirs.
    expect(await publicKey(ORG)).toEqual(keys[0]);

    expectInvalid(await put(`${REPO}/secrets/TOKEN`, before), "Secret", "key_id");
    // The current key id with a value sealed for the old key does not open.
    const stale = { ...before, key_id: rotated.body.key_id };
    expectInvalid(await put(`${REPO}/secrets/TOKEN`, stale), "Secret", "encrypted_value");
    expect((await put(`${REPO}/secrets/TOKEN`, await sealed(REPO, VALUE))).status).toBe(201);
  });

  it.each([
    [{ key_id: "1" }, "encrypted_value", "missing_field"],
    [{ encrypted_value: "AAAA" }, "key_id", "missing_field"],
    [{ encrypted_value: "not base64!", key_id: "current" }, "encrypted_value", "invalid"],
    [{ encrypted_value: 42, key_id: "current" }, "encrypted_value", "invalid"],
  ])("refuses %j naming %s", async (body, field, code) => {
    const key = await publicKey(ENV);
    const sent = {
      ...body,
      ...("key_id" in body && body.key_id === "current" ? { key_id: key.key_id } : {}),
    };
    expectInvalid(await put(`${ENV}/secrets/TOKEN`, sent), "Secret", field, code);
    expect((await get(`${ENV}/secrets`)).body.total_count).toBe(0);
  });

  it("refuses a value over 48 KB naming encrypted_value", async () => {
    const response = await put(`${REPO}/secrets/BIG`, await sealed(REPO, "x".repeat(48 * 1024 + 1)));
    expectInvalid(response, "Secret", "encrypted_value");
  });
});

describe("secrets", () => {
  it.each(ACTIONS_SCOPES)(
    "%s: PUT creates (201 {}), then updates (204); reads never show the value",
    async (scope) => {
      const extra = scope === ORG ? orgSecret() : {};
      const created = await put(`${scope}/secrets/API_TOKEN`, { ...(await sealed(scope, VALUE)), ...extra });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({});
      expect(await heldValue(scope, "API_TOKEN")).toBe(VALUE);

      const first = (await get(`${scope}/secrets/API_TOKEN`)).body;
      expect(first).toMatchObject({ name: "API_TOKEN", created_at: expect.stringMatching(/Z$/) });
      expect(JSON.stringify(first)).not.toContain(VALUE);

      const updated = await put(`${scope}/secrets/API_TOKEN`, { ...(await sealed(scope, "next")), ...extra });
      expect(updated.status).toBe(204);
      expect(updated.text).toBe("");
      expect(await heldValue(scope, "API_TOKEN")).toBe("next");
      const second = (await get(`${scope}/secrets/API_TOKEN`)).body;
      // Every write moves updated_at forward, even within one second.
      expect(second.created_at).toBe(first.created_at);
      expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));

      const listed = await get(`${scope}/secrets`);
      expect(listed.body.secrets).toContainEqual(second);
      expect(listed.text).not.toContain("next");

      expect((await del(`${scope}/secrets/API_TOKEN`)).status).toBe(204);
      expect((await get(`${scope}/secrets/API_TOKEN`)).status).toBe(404);
      expect((await del(`${scope}/secrets/API_TOKEN`)).status).toBe(404);
    },
  );

  it("stores names upper-case and finds them whatever their case", async () => {
    expect(await putSecret(sandbox.emulator, REPO, "deploy_token", VALUE)).toBe(201);
    expect((await get(`${REPO}/secrets/Deploy_Token`)).body.name).toBe("DEPLOY_TOKEN");
    // The same secret: an update.
    expect(await putSecret(sandbox.emulator, REPO, "DEPLOY_TOKEN", "again")).toBe(204);
    expect(await heldValue(REPO, "deploy_token")).toBe("again");
  });

  it.each([
    ["1ST_TOKEN", "must not start with a digit"],
    ["DEPLOY-KEY", "letters, digits and underscores"],
    ["SERVICE_TOKEN", "reserved prefix SERVICE_"],
    ["service_token", "reserved prefix SERVICE_"],
  ])("refuses the name %s naming secret_name", async (name, message) => {
    const response = await put(`${REPO}/secrets/${name}`, await sealed(REPO, VALUE));
    expectInvalid(response, "Secret", "secret_name");
    expect(response.text).toContain(message);
  });

  it("is refused to a member (404 on the repository's, 403 on the organisation's), changing nothing", async () => {
    expect((await get(`${REPO}/secrets`, TOKENS.member)).status).toBe(404);
    const org = await get(`${ORG}/secrets`, TOKENS.member);
    expect(org.status).toBe(403);
    expect(org.headers.get("x-accepted-service-permissions")).toBe("organization_secrets=read");
  });
});

describe("organisation secrets", () => {
  it("need a visibility, and a value when new; an existing one may change its visibility alone", async () => {
    expectInvalid(
      await put(`${ORG}/secrets/NEW`, await sealed(ORG, VALUE)),
      "Secret",
      "visibility",
      "missing_field",
    );
    expectInvalid(await put(`${ORG}/secrets/NEW`, orgSecret()), "Secret", "encrypted_value", "missing_field");
    expectInvalid(
      await put(`${ORG}/secrets/NEW`, { ...(await sealed(ORG, VALUE)), visibility: "internal" }),
      "Secret",
      "visibility",
    );
    const before = (await get(`${ORG}/secrets/NPM_TOKEN`)).body;
    expect((await put(`${ORG}/secrets/NPM_TOKEN`, { visibility: "all" })).status).toBe(204);
    const after = (await get(`${ORG}/secrets/NPM_TOKEN`)).body;
    expect(after.visibility).toBe("all");
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(await heldValue(ORG, "NPM_TOKEN")).toBe("fixture-npm-token");
  });

  it("take selected repositories only with visibility selected, as a set, and list them", async () => {
    const body = async (extra: Record<string, unknown>) => ({ ...(await sealed(ORG, VALUE)), ...extra });
    expectInvalid(
      await put(`${ORG}/secrets/CI`, await body({ visibility: "all", selected_repository_ids: [1000] })),
      "Secret",
      "selected_repository_ids",
    );
    expectInvalid(
      await put(`${ORG}/secrets/CI`, await body({ visibility: "selected", selected_repository_ids: [1002] })),
      "Secret",
      "selected_repository_ids",
    );
    const made = await put(
      `${ORG}/secrets/CI`,
      await body({ visibility: "selected", selected_repository_ids: [1001, 1000, 1001] }),
    );
    expect(made.status).toBe(201);
    const secret = (await get(`${ORG}/secrets/CI`)).body;
    expect(secret.selected_repositories_url).toMatch(
      /\/api\/v3\/orgs\/acme-eng\/actions\/secrets\/CI\/repositories$/,
    );
    const repos = await get(`${ORG}/secrets/CI/repositories`);
    expect(repos.body.total_count).toBe(2);
    expect(repos.body.repositories.map((r: { full_name: string }) => r.full_name).sort()).toEqual([
      "acme-eng/api",
      "acme-eng/web",
    ]);

    // Replace, remove and add one.
    expect((await put(`${ORG}/secrets/CI/repositories`, { selected_repository_ids: [1000] })).status).toBe(
      204,
    );
    expect((await del(`${ORG}/secrets/CI/repositories/1000`)).status).toBe(204);
    expect((await get(`${ORG}/secrets/CI/repositories`)).body.total_count).toBe(0);
    expect((await put(`${ORG}/secrets/CI/repositories/1003`, {})).status).toBe(204);
    expect((await get(`${ORG}/secrets/CI/repositories`)).body.repositories[0].name).toBe("empty");
    // Not a repository of acme-eng.
    expect((await put(`${ORG}/secrets/CI/repositories/1002`, {})).status).toBe(404);

    // Leaving selected forgets them; the routes then answer 409.
    expect((await put(`${ORG}/secrets/CI`, { visibility: "private" })).status).toBe(204);
    expect((await get(`${ORG}/secrets/CI`)).body.selected_repositories_url).toBeUndefined();
    expect((await get(`${ORG}/secrets/CI/repositories`)).status).toBe(409);
    expect((await put(`${ORG}/secrets/CI/repositories/1000`, {})).status).toBe(409);
    expect((await put(`${ORG}/secrets/CI`, { visibility: "selected" })).status).toBe(204);
    expect((await get(`${ORG}/secrets/CI/repositories`)).body.total_count).toBe(0);
  });
});

describe("environments", () => {
  it("answer 404 on every route when the environment does not exist", async () => {
    const nowhere = "/repos/acme-eng/api/environments/nowhere";
    expect((await get(`${nowhere}/secrets/public-key`)).status).toBe(404);
    expect((await get(`${nowhere}/secrets`)).status).toBe(404);
    expect((await get(`${nowhere}/variables`)).status).toBe(404);
    expect((await post(`${nowhere}/variables`, { name: "X", value: "y" })).status).toBe(404);
    expect((await put(`${nowhere}/secrets/X`, { encrypted_value: "AAAA", key_id: "1" })).status).toBe(404);
    // acme-eng/web has no environments at all.
    expect((await get("/repos/acme-eng/web/environments/production/secrets")).status).toBe(404);
  });

  it("are named case-insensitively, and share nothing with each other or the repository", async () => {
    expect(await putSecret(sandbox.emulator, ENV, "TOKEN", "eu")).toBe(201);
    const production = "/repos/acme-eng/api/environments/Production";
    expect(await putSecret(sandbox.emulator, production, "TOKEN", "prod")).toBe(201);
    expect(await heldValue(ENV, "TOKEN")).toBe("eu");
    expect(await heldValue("/repos/acme-eng/api/environments/production", "TOKEN")).toBe("prod");
    expect((await get(`${REPO}/secrets/TOKEN`)).status).toBe(404);
  });

  it("dropEnvironmentActions removes an environment's secrets, variables and key, and nothing else", () => {
    const state = freshState();
    const env = (environment: string) => `env:1000:${environment}`;
    const record = { value: "v", createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" };
    state.actionsSecrets.push({ scope: env("release/eu"), name: "A", ...record });
    state.actionsSecrets.push({ scope: env("production"), name: "A", ...record });
    state.actionsVariables.push({ scope: env("release/eu"), name: "B", ...record });
    const key = { keyId: "1", publicKey: "p", privateKey: "k" };
    state.actionsKeys[env("release/eu")] = key;
    state.actionsKeys[env("production")] = key;

    // The environment's name in any case; an unknown repository changes nothing.
    dropEnvironmentActions(state, "ACME-ENG", "api", "Release/EU");
    dropEnvironmentActions(state, "acme-eng", "nowhere", "production");

    expect(state.actionsSecrets.map((s) => s.scope)).toEqual(["org:100", "repo:1000", env("production")]);
    expect(state.actionsVariables).toEqual([]);
    expect(Object.keys(state.actionsKeys)).toEqual([env("production")]);
  });
});

describe("variables", () => {
  it.each(ACTIONS_SCOPES)(
    "%s: POST (201 {}), GET with the value, PATCH (204), DELETE (204)",
    async (scope) => {
      const extra = scope === ORG ? { visibility: "all" } : {};
      const created = await post(`${scope}/variables`, { name: "region", value: "eu-west-1", ...extra });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({});
      const first = (await get(`${scope}/variables/REGION`)).body;
      expect(first).toMatchObject({ name: "REGION", value: "eu-west-1", ...extra });

      // Another of the same name, in any case, is a 409.
      const again = await post(`${scope}/variables`, { name: "Region", value: "x", ...extra });
      expect(again.status).toBe(409);
      expectErrorBody(again.body, /already exists/);

      expect((await patch(`${scope}/variables/region`, { value: "us-east-1" })).status).toBe(204);
      const second = (await get(`${scope}/variables/REGION`)).body;
      expect(second.value).toBe("us-east-1");
      expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));

      // Renamed; a name taken is a 409.
      expect((await post(`${scope}/variables`, { name: "OTHER", value: "o", ...extra })).status).toBe(201);
      expect((await patch(`${scope}/variables/REGION`, { name: "other" })).status).toBe(409);
      expect((await patch(`${scope}/variables/REGION`, { name: "zone" })).status).toBe(204);
      expect((await get(`${scope}/variables/ZONE`)).body.value).toBe("us-east-1");
      expect((await get(`${scope}/variables/REGION`)).status).toBe(404);

      expect((await del(`${scope}/variables/ZONE`)).status).toBe(204);
      expect((await get(`${scope}/variables/ZONE`)).status).toBe(404);
    },
  );

  it.each([
    ["no name", { value: "v" }, "name", "missing_field"],
    ["a name starting with a digit", { name: "9LIVES", value: "v" }, "name", "invalid"],
    ["a name with the reserved prefix", { name: "SERVICE_URL", value: "v" }, "name", "invalid"],
    ["no value", { name: "A" }, "value", "missing_field"],
    ["an empty value", { name: "A", value: "" }, "value", "invalid"],
    ["a number", { name: "A", value: 7 }, "value", "invalid"],
    ["a value over 48 KB", { name: "A", value: "x".repeat(48 * 1024 + 1) }, "value", "invalid"],
  ])("refuses %s naming the field", async (_label, body, field, code) => {
    expectInvalid(await post(`${REPO}/variables`, body), "Variable", field, code);
  });

  it("of an organisation need a visibility, and take selected repositories as secrets do", async () => {
    expectInvalid(
      await post(`${ORG}/variables`, { name: "A", value: "v" }),
      "Variable",
      "visibility",
      "missing_field",
    );
    const made = await post(`${ORG}/variables`, {
      name: "A",
      value: "v",
      visibility: "selected",
      selected_repository_ids: [1000],
    });
    expect(made.status).toBe(201);
    expect((await get(`${ORG}/variables/A/repositories`)).body.repositories[0].id).toBe(1000);
    // A PATCH without settings keeps them.
    expect((await patch(`${ORG}/variables/A`, { value: "w" })).status).toBe(204);
    expect((await get(`${ORG}/variables/A`)).body).toMatchObject({ value: "w", visibility: "selected" });
    expect((await get(`${ORG}/variables/A/repositories`)).body.total_count).toBe(1);
    expect((await patch(`${ORG}/variables/A`, { visibility: "private" })).status).toBe(204);
    expect((await get(`${ORG}/variables/A/repositories`)).status).toBe(409);
  });

  it("list by pages of at most 30", async () => {
    for (let i = 0; i < 31; i++) {
      expect((await post(`${REPO}/variables`, { name: `V${i}`, value: "v" })).status).toBe(201);
    }
    const page = await get(`${REPO}/variables?per_page=100`);
    expect(page.body.total_count).toBe(31);
    expect(page.body.variables).toHaveLength(30);
    const next = new URL(parseLink(page.headers.get("link")).next ?? "");
    expect([next.searchParams.get("page"), next.searchParams.get("per_page")]).toEqual(["2", "30"]);
  });
});

describe("controls", () => {
  it("change a secret's value as the web UI does: a new value, a later updated_at", async () => {
    const before = (await get(`${REPO}/secrets/DEPLOY_KEY`)).body;
    const changed = await control(sandbox.emulator, "PUT", `${REPO}/secrets/deploy_key/value`, {
      value: "from the web",
    });
    expect(changed.status).toBe(200);
    expect(await heldValue(REPO, "DEPLOY_KEY")).toBe("from the web");
    const after = (await get(`${REPO}/secrets/DEPLOY_KEY`)).body;
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(changed.body).toEqual({ name: "DEPLOY_KEY", updated_at: after.updated_at });
    expect(
      (await control(sandbox.emulator, "PUT", `${REPO}/secrets/NOPE/value`, { value: "x" })).status,
    ).toBe(404);
    expect(
      (await control(sandbox.emulator, "PUT", `${REPO}/secrets/DEPLOY_KEY/value`, { value: "" })).status,
    ).toBe(422);
  });

  it("change a variable's value", async () => {
    expect((await post(`${ENV}/variables`, { name: "A", value: "v" })).status).toBe(201);
    const changed = await control(sandbox.emulator, "PUT", `${ENV}/variables/a/value`, { value: "w" });
    expect(changed.status).toBe(200);
    expect((await get(`${ENV}/variables/A`)).body.value).toBe("w");
  });
});
