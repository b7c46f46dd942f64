/**
 * Custom deployment protection rules (spec, table P; concepts, "Deployment protection rule
 * (custom)"): every route, URL-encoded environment names, the integrations available to an
 * environment, validation of `integration_id`, and who may read and write.
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import type { Fixture } from "../../../../emulator/index";
import {
  call,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  parseLink,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

/**
 * The default fixture plus: an app installed on acme-ops only, an environment of the private
 * acme-eng/api whose name holds `:` and `/`, and an environment on the public acme-eng/web.
 */
function fixture(): Fixture {
  const f = defaultFixture();
  f.apps.push({ id: 103, slug: "ops-gate", installedOn: ["acme-ops"] });
  for (const repo of f.repos) {
    if (repo.owner === "acme-eng" && repo.name === "api") repo.environments.push("canary:eu/1");
    if (repo.owner === "acme-eng" && repo.name === "web") repo.environments.push("preview");
  }
  return f;
}

const sandbox = useSandbox({ fixture: fixture() });

const rules = (environment: string, repo = "acme-eng/api") =>
  `/repos/${repo}/environments/${encodeURIComponent(environment)}/deployment_protection_rules`;
const RELEASE = rules("release/eu");

async function enable(path: string, integrationId: number, token: string = TOKENS.owner): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", path, {
    token,
    body: { integration_id: integrationId },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe("POST and GET .../deployment_protection_rules", () => {
  it("enables an app on release%2Feu and answers the rule object", async () => {
    expect(RELEASE).toContain("/environments/release%2Feu/");
    const rule = await enable(RELEASE, 101);
    expect(rule).toEqual({
      id: expect.any(Number),
      node_id: expect.any(String),
      enabled: true,
      app: {
        id: 101,
        node_id: expect.any(String),
        slug: "deploy-gate",
        integration_url: `${sandbox.emulator.url}/apps/deploy-gate`,
      },
    });
    const list = await call(sandbox.emulator, "GET", RELEASE);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ total_count: 1, custom_deployment_protection_rules: [rule] });
    const one = await call(sandbox.emulator, "GET", `${RELEASE}/${rule.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(rule);
    expect((await stateOf(sandbox.emulator)).protectionRules).toEqual([
      { id: rule.id, repo: "acme-eng/api", environment: "release/eu", appId: 101 },
    ]);
  });

  it("lists an environment without rules as empty", async () => {
    const list = await call(sandbox.emulator, "GET", rules("production"));
    expect(list.body).toEqual({ total_count: 0, custom_deployment_protection_rules: [] });
  });

  it("logs the route template with the encoded environment in the path", async () => {
    sandbox.emulator.controls.clearLog();
    await call(sandbox.emulator, "GET", RELEASE);
    expect(sandbox.emulator.controls.log[0]).toMatchObject({
      path: "/repos/acme-eng/api/environments/release%2Feu/deployment_protection_rules",
      route: "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules",
    });
  });

  it("routes an environment name holding ':' and '/' and compares names case-insensitively", async () => {
    const canary = rules("canary:eu/1");
    expect(canary).toContain("canary%3Aeu%2F1");
    const rule = await enable(canary, 102);
    const upper = await call(sandbox.emulator, "GET", `${rules("CANARY:EU/1")}/${rule.id}`);
    expect(upper.status).toBe(200);
    expect((await stateOf(sandbox.emulator)).protectionRules[0].environment).toBe("canary:eu/1");
  });

  it("answers 404 for a slash left unencoded, an unknown environment or repository", async () => {
    for (const path of [
      "/repos/acme-eng/api/environments/release/eu/deployment_protection_rules",
      rules("nowhere"),
      rules("production", "acme-eng/nothing"),
    ]) {
      const read = await call(sandbox.emulator, "GET", path);
      expect(read.status, path).toBe(404);
      expectErrorBody(read.body, "Not Found");
      const write = await call(sandbox.emulator, "POST", path, { body: { integration_id: 101 } });
      expect(write.status, path).toBe(404);
    }
    expect((await stateOf(sandbox.emulator)).protectionRules).toEqual([]);
  });

  it("keeps rules per environment", async () => {
    const rule = await enable(RELEASE, 101);
    await enable(rules("production"), 101);
    expect((await call(sandbox.emulator, "GET", `${rules("production")}/${rule.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${rules("staging")}/${rule.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${rules("staging")}/${rule.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", RELEASE)).body.total_count).toBe(1);
  });

  it("answers 404 for rule ids that are not plain integers", async () => {
    const rule = await enable(RELEASE, 101);
    for (const id of [`0${rule.id}`, "0x1", "-1", "abc", "99999"]) {
      expect((await call(sandbox.emulator, "GET", `${RELEASE}/${id}`)).status, id).toBe(404);
    }
  });
});

describe("POST validation", () => {
  it.each([
    ["no integration_id", {}, "missing_field"],
    ["integration_id null", { integration_id: null }, "missing_field"],
    ["a string", { integration_id: "101" }, "invalid"],
    ["zero", { integration_id: 0 }, "invalid"],
    ["a fraction", { integration_id: 101.5 }, "invalid"],
    ["an app that does not exist", { integration_id: 999 }, "invalid"],
    ["an app installed on another owner", { integration_id: 103 }, "invalid"],
  ])("refuses %s with a 422 naming integration_id", async (_label, body, code) => {
    const response = await call(sandbox.emulator, "POST", RELEASE, { body });
    expectValidationFailed(response, "integration_id", code, "DeploymentProtectionRule");
    expect((await stateOf(sandbox.emulator)).protectionRules).toEqual([]);
  });

  it("says which owner an unavailable app must be installed on", async () => {
    const response = await call(sandbox.emulator, "POST", RELEASE, { body: { integration_id: 103 } });
    expect(response.body.errors[0].message).toMatch(/not available to environment release\/eu.*acme-eng/);
  });

  it("refuses an app already enabled on the environment with already_exists", async () => {
    await enable(RELEASE, 101);
    const again = await call(sandbox.emulator, "POST", RELEASE, { body: { integration_id: 101 } });
    expectValidationFailed(again, "integration_id", "already_exists", "DeploymentProtectionRule");
    expect(again.body.errors[0].message).toMatch(/deploy-gate is already enabled/);
    expect((await stateOf(sandbox.emulator)).protectionRules).toHaveLength(1);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await call(sandbox.emulator, "POST", RELEASE, { rawBody: "{" });
    expect(response.status).toBe(400);
  });
});

describe("GET .../deployment_protection_rules/apps", () => {
  it("lists the apps installed on the repository's owner as two objects", async () => {
    const response = await call(sandbox.emulator, "GET", `${RELEASE}/apps`, { token: TOKENS.owner });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { total_count: 2 },
      {
        available_custom_deployment_protection_rule_integrations: [
          expect.objectContaining({ id: 101, slug: "deploy-gate", node_id: expect.any(String) }),
          expect.objectContaining({ id: 102, slug: "change-window" }),
        ],
      },
    ]);
    const app = response.body[1].available_custom_deployment_protection_rule_integrations[0];
    expect(app.integration_url).toBe(`${sandbox.emulator.url}/apps/deploy-gate`);
    expect(response.headers.get("x-accepted-service-permissions")).toBe("administration=read");
  });

  it("pages with per_page and Link, total_count counting every app", async () => {
    const first = await call(sandbox.emulator, "GET", `${RELEASE}/apps?per_page=1`);
    expect(first.body[0]).toEqual({ total_count: 2 });
    expect(first.body[1].available_custom_deployment_protection_rule_integrations).toHaveLength(1);
    const next = parseLink(first.headers.get("link")).next;
    expect(next).toContain("page=2");
    const second = await call(sandbox.emulator, "GET", next ?? "");
    expect(second.body[1].available_custom_deployment_protection_rule_integrations[0].slug).toBe(
      "change-window",
    );
  });

  it("is not shadowed by the rule id route, in answers or in the request log", async () => {
    sandbox.emulator.controls.clearLog();
    const response = await call(sandbox.emulator, "GET", `${rules("canary:eu/1")}/apps`);
    expect(response.status).toBe(200);
    expect(response.body[0].total_count).toBe(2);
    expect(sandbox.emulator.controls.log[0]?.route).toBe(
      "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/apps",
    );
  });
});

describe("DELETE .../deployment_protection_rules/{protection_rule_id}", () => {
  it("disables the rule: 204, then 404", async () => {
    const rule = await enable(RELEASE, 101);
    const removed = await call(sandbox.emulator, "DELETE", `${RELEASE}/${rule.id}`, { token: TOKENS.owner });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await call(sandbox.emulator, "GET", `${RELEASE}/${rule.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${RELEASE}/${rule.id}`)).status).toBe(404);
    // The app can be enabled again.
    await enable(RELEASE, 101);
  });
});

describe("who may read and write", () => {
  const PREVIEW = rules("preview", "acme-eng/web");

  it("serves the rules of a public repository to anyone, anonymous callers included", async () => {
    const rule = await enable(PREVIEW, 101);
    for (const token of [null, TOKENS.noScopes, TOKENS.member]) {
      const list = await call(sandbox.emulator, "GET", PREVIEW, { token });
      expect(list.status, String(token)).toBe(200);
      expect(list.body.total_count).toBe(1);
      expect((await call(sandbox.emulator, "GET", `${PREVIEW}/${rule.id}`, { token })).status).toBe(200);
    }
    expect((await call(sandbox.emulator, "GET", PREVIEW, { token: "svcp_unknown" })).status).toBe(401);
  });

  it("hides a private repository's rules from anonymous callers and tokens without repo", async () => {
    const rule = await enable(RELEASE, 101);
    for (const token of [null, TOKENS.noScopes]) {
      expect((await call(sandbox.emulator, "GET", RELEASE, { token })).status).toBe(404);
      expect((await call(sandbox.emulator, "GET", `${RELEASE}/${rule.id}`, { token })).status).toBe(404);
    }
    const install = await call(sandbox.emulator, "GET", RELEASE, { token: TOKENS.install });
    expect(install.status).toBe(200);
  });

  it("keeps writes and the app list to the repository's admins, even on a public repository", async () => {
    const none = await call(sandbox.emulator, "POST", PREVIEW, {
      token: null,
      body: { integration_id: 101 },
    });
    expect(none.status).toBe(401);
    const member = await call(sandbox.emulator, "POST", PREVIEW, {
      token: TOKENS.member,
      body: { integration_id: 101 },
    });
    expect(member.status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${PREVIEW}/apps`, { token: TOKENS.member })).status).toBe(
      404,
    );
    const install = await call(sandbox.emulator, "POST", PREVIEW, {
      token: TOKENS.install,
      body: { integration_id: 101 },
    });
    expect(install.status).toBe(403);
    expect(install.headers.get("x-accepted-service-permissions")).toBe("administration=write");
    expect(install.headers.get("x-accepted-oauth-scopes")).toBe("repo");
    expect((await stateOf(sandbox.emulator)).protectionRules).toEqual([]);
  });

  it("names Actions read and repo on the read routes", async () => {
    const list = await call(sandbox.emulator, "GET", RELEASE);
    expect(list.headers.get("x-accepted-service-permissions")).toBe("actions=read");
    expect(list.headers.get("x-accepted-oauth-scopes")).toBe("repo");
  });
});
