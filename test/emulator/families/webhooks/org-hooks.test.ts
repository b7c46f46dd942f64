/**
 * Organisation webhooks (`/orgs/{org}/hooks`), as the platform's published description has them:
 * create with `name` and `config`, the masked secret (removed by an update that does not send it
 * again), one hook per URL, config, pings and deliveries by cursor, the events control, and who may
 * use them (owners with `admin:org_hook` or `organization_hooks`; 404 to anyone else).
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import type { Fixture } from "../../../../emulator/index";
import {
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  MASK,
  parseLink,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

/** octocat (a member of acme-eng, no owner) with the organisation hook scope. */
const MEMBER_WITH_SCOPE = "svcp_member_org_hook";

function fixture(): Fixture {
  const f = defaultFixture();
  f.tokens[MEMBER_WITH_SCOPE] = {
    kind: "classic",
    user: "octocat",
    scopes: ["admin:org_hook"],
    permissions: {},
  };
  return f;
}

const sandbox = useSandbox({ fixture: fixture() });
const HOOKS = "/orgs/acme-eng/hooks";

async function create(body: Record<string, unknown> = {}): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", HOOKS, {
    body: { name: "web", config: { url: "https://example.com/org" }, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe("POST /orgs/{org}/hooks", () => {
  it("applies the defaults and answers 201 with the hook and its URLs", async () => {
    const hook = await create();
    expect(hook).toMatchObject({
      type: "Organization",
      name: "web",
      active: true,
      events: ["push"],
      config: { url: "https://example.com/org", content_type: "form", insecure_ssl: "0" },
    });
    const base = `${sandbox.emulator.url}/orgs/acme-eng/hooks/${hook.id}`;
    expect(hook.url).toBe(base);
    expect(hook.ping_url).toBe(`${base}/pings`);
    expect(hook.deliveries_url).toBe(`${base}/deliveries`);
    expect(hook).not.toHaveProperty("test_url");
  });

  it("masks the secret and takes organisation events", async () => {
    const hook = await create({
      config: { url: "https://example.com/org", secret: "s3cret", content_type: "json" },
      events: ["organization", "membership", "push"],
    });
    expect(hook.config.secret).toBe(MASK);
    expect(hook.events).toEqual(["organization", "membership", "push"]);
    expect(JSON.stringify((await call(sandbox.emulator, "GET", HOOKS)).body)).not.toContain("s3cret");
    expect(sandbox.emulator.store.state.orgHooks[0]?.config.secret).toBe("s3cret");
  });

  it.each([
    ["no name", { config: { url: "https://example.com/x" } }, "name", "missing_field"],
    ["a name other than web", { name: "irc", config: { url: "https://example.com/x" } }, "name", "custom"],
    ["no config", { name: "web" }, "config", "missing_field"],
    ["a URL that is not http(s)", { name: "web", config: { url: "ftp://example.com" } }, "url", "invalid"],
    [
      "an unknown event",
      { name: "web", config: { url: "https://example.com/x" }, events: ["nope"] },
      "events",
      "invalid",
    ],
  ])("refuses %s with a 422 naming %s", async (_label, body, field, code) => {
    const response = await call(sandbox.emulator, "POST", HOOKS, { body });
    expectValidationFailed(response, field, code);
    expect((await stateOf(sandbox.emulator)).orgHooks).toEqual([]);
  });

  it("refuses a second hook for one URL in the organisation, not in another", async () => {
    await create();
    const again = await call(sandbox.emulator, "POST", HOOKS, {
      body: { name: "web", config: { url: "https://example.com/org" } },
    });
    expectValidationFailed(again, undefined, "custom");
    expect(again.body.errors[0].message).toBe("Hook already exists on this organization");
    const other = await call(sandbox.emulator, "POST", "/orgs/acme-ops/hooks", {
      body: { name: "web", config: { url: "https://example.com/org" } },
    });
    expect(other.status).toBe(201);
  });
});

describe("GET, PATCH and DELETE /orgs/{org}/hooks/{hook_id}", () => {
  it("lists and reads the organisation's hooks only", async () => {
    const hook = await create();
    await call(sandbox.emulator, "POST", "/orgs/acme-ops/hooks", {
      body: { name: "web", config: { url: "https://example.com/ops" } },
    });
    const list = await call(sandbox.emulator, "GET", HOOKS);
    expect(list.body.map((h: Json) => h.id)).toEqual([hook.id]);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`)).body).toEqual(hook);
    expect((await call(sandbox.emulator, "GET", `/orgs/acme-ops/hooks/${hook.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/0${hook.id}`)).status).toBe(404);
  });

  it("keeps what a PATCH leaves out, but a config without its secret removes the secret", async () => {
    const hook = await create({ config: { url: "https://example.com/org", secret: "s3cret" } });
    const inactive = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { active: false },
    });
    expect(inactive.body).toMatchObject({ active: false, events: ["push"], config: { secret: MASK } });
    const kept = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { config: { url: "https://example.com/org", secret: "rotated" }, events: ["team"] },
    });
    expect(kept.body).toMatchObject({ events: ["team"], config: { secret: MASK } });
    expect(sandbox.emulator.store.state.orgHooks[0]?.config.secret).toBe("rotated");
    const dropped = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { config: { url: "https://example.com/org" } },
    });
    expect(dropped.body.config).not.toHaveProperty("secret");
  });

  it("reads and changes the config alone", async () => {
    const hook = await create();
    const config = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, {
      body: { content_type: "json", insecure_ssl: 1 },
    });
    expect(config.body).toEqual({ url: "https://example.com/org", content_type: "json", insecure_ssl: "1" });
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`)).body).toEqual(config.body);
  });

  it("deletes the hook with its deliveries", async () => {
    const hook = await create();
    await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    const removed = await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`);
    expect(removed.status).toBe(204);
    const state = await stateOf(sandbox.emulator);
    expect([state.orgHooks, state.deliveries]).toEqual([[], []]);
    const again = await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`);
    expect(again.status).toBe(404);
    expectErrorBody(again.body, "Not Found");
  });
});

describe("pings, deliveries and events", () => {
  it("records a ping and lists deliveries newest first, paged by cursor", async () => {
    const hook = await create();
    for (let i = 0; i < 3; i++) {
      expect((await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`)).status).toBe(204);
    }
    const first = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries?per_page=2`);
    expect(first.body).toHaveLength(2);
    expect(first.body[0]).toMatchObject({ event: "ping", status_code: 200, repository_id: null });
    expect(first.body[0].id).toBeGreaterThan(first.body[1].id);
    const next = parseLink(first.headers.get("link")).next;
    const second = await call(sandbox.emulator, "GET", next ?? "");
    expect(second.body).toHaveLength(1);
    const bad = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries?cursor=999999`);
    expectValidationFailed(bad, "cursor", "invalid");
  });

  it("delivers an organisation event to the active hooks subscribed to it (control)", async () => {
    const team = await create({ events: ["team"] });
    const all = await create({ config: { url: "https://example.com/all" }, events: ["*"] });
    await create({ config: { url: "https://example.com/off" }, events: ["team"], active: false });
    await create({ config: { url: "https://example.com/push" } });
    const sent = await control(sandbox.emulator, "POST", "/orgs/acme-eng/hooks/events", { event: "team" });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ event: "team", delivered: [team.id, all.id] });
    const deliveries = await call(sandbox.emulator, "GET", `${HOOKS}/${team.id}/deliveries`);
    expect(deliveries.body.map((d: Json) => d.event)).toEqual(["team"]);
    expect(
      (await control(sandbox.emulator, "POST", "/orgs/nowhere/hooks/events", { event: "team" })).status,
    ).toBe(404);
    expect(
      (await control(sandbox.emulator, "POST", "/orgs/acme-eng/hooks/events", { event: "Team!" })).status,
    ).toBe(422);
  });
});

describe("who may use organisation hooks", () => {
  it("refuses tokens without the scope or permission with 403, naming both", async () => {
    for (const token of [TOKENS.owner, TOKENS.member, TOKENS.install]) {
      const response = await call(sandbox.emulator, "GET", HOOKS, { token });
      expect(response.status, token).toBe(403);
      expect(response.headers.get("x-accepted-oauth-scopes")).toBe("admin:org_hook");
      expect(response.headers.get("x-accepted-service-permissions")).toBe("organization_hooks=read");
    }
    const write = await call(sandbox.emulator, "POST", HOOKS, {
      token: TOKENS.owner,
      body: { name: "web", config: { url: "https://example.com/x" } },
    });
    expect(write.headers.get("x-accepted-service-permissions")).toBe("organization_hooks=write");
  });

  it("answers 404 to a member who is no owner, whatever the scope, and serves owners' fine-grained tokens", async () => {
    const hook = await create();
    expect((await call(sandbox.emulator, "GET", HOOKS, { token: MEMBER_WITH_SCOPE })).status).toBe(404);
    expect(
      (await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`, { token: MEMBER_WITH_SCOPE })).status,
    ).toBe(404);
    const fine = await call(sandbox.emulator, "GET", HOOKS, { token: TOKENS.fineGrained });
    expect(fine.status).toBe(200);
    expect((await call(sandbox.emulator, "GET", "/orgs/nowhere/hooks")).status).toBe(404);
  });
});
