/**
 * Global webhooks (spec, Endpoints: Global webhooks; Concepts: Global webhook, Events 2): site
 * administrators only, name must be web, default events [user, organization], PATCH resets every
 * omitted parameter.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  control,
  createGlobalHook,
  expectErrorBody,
  expectValidationFailed,
  MASK,
  parseLink,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const ALLOWED_EVENTS = ["organization", "user", "repository", "team", "member", "membership", "fork", "ping"];

describe("POST /admin/hooks", () => {
  it("creates a Global hook with the default events and settings", async () => {
    const response = await call(sandbox.emulator, "POST", "/admin/hooks", {
      body: { name: "web", config: { url: "https://example.com/g" } },
    });
    expect(response.status).toBe(201);
    const hook = response.body;
    expect(hook).toMatchObject({
      type: "Global",
      name: "web",
      active: true,
      events: ["user", "organization"],
      config: { url: "https://example.com/g", content_type: "form", insecure_ssl: "0" },
    });
    expect(hook.config).not.toHaveProperty("secret");
    expect(hook.url).toBe(`${sandbox.emulator.url}/admin/hooks/${hook.id}`);
    expect(hook.ping_url).toBe(`${sandbox.emulator.url}/admin/hooks/${hook.id}/pings`);
    expect(hook.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(hook.updated_at).toBe(hook.created_at);
  });

  it("takes every field given and masks the secret", async () => {
    const hook = await createGlobalHook(sandbox.emulator, {
      name: "web",
      active: false,
      events: ["repository", "team"],
      config: { url: "https://example.com/all", content_type: "json", insecure_ssl: "1", secret: "gsecret" },
    });
    expect(hook).toMatchObject({
      active: false,
      events: ["repository", "team"],
      config: { url: "https://example.com/all", content_type: "json", insecure_ssl: "1", secret: MASK },
    });
    const get = await call(sandbox.emulator, "GET", `/admin/hooks/${hook.id}`);
    expect(get.body).toEqual(hook);
    expect(get.text).not.toContain("gsecret");
  });

  it("accepts every allowed event", async () => {
    const hook = await createGlobalHook(sandbox.emulator, {
      name: "web",
      events: ALLOWED_EVENTS,
      config: { url: "https://example.com/every" },
    });
    expect([...hook.events].sort()).toEqual([...ALLOWED_EVENTS].sort());
  });

  it.each(["push", "pull_request", "issues", "*"])(
    "refuses the repository event %j with 422",
    async (event) => {
      const response = await call(sandbox.emulator, "POST", "/admin/hooks", {
        body: { name: "web", events: ["user", event], config: { url: "https://example.com/x" } },
      });
      expectValidationFailed(response, "events", "invalid");
    },
  );

  it("requires the name", async () => {
    const response = await call(sandbox.emulator, "POST", "/admin/hooks", {
      body: { config: { url: "https://example.com/x" } },
    });
    expectValidationFailed(response, "name", "missing_field");
  });

  it("refuses a name other than web", async () => {
    const response = await call(sandbox.emulator, "POST", "/admin/hooks", {
      body: { name: "slack", config: { url: "https://example.com/x" } },
    });
    expectValidationFailed(response, "name", "custom");
    expect((await call(sandbox.emulator, "GET", "/admin/hooks")).body).toEqual([]);
  });

  it.each([
    ["a missing config", { name: "web" }, "config", "missing_field"],
    ["a missing config.url", { name: "web", config: { content_type: "json" } }, "url", "missing_field"],
    ["a bad url", { name: "web", config: { url: "nope" } }, "url", "invalid"],
    [
      "a bad content_type",
      { name: "web", config: { url: "https://e.com", content_type: "text" } },
      "content_type",
      "invalid",
    ],
    [
      "a bad insecure_ssl",
      { name: "web", config: { url: "https://e.com", insecure_ssl: "yes" } },
      "insecure_ssl",
      "invalid",
    ],
    [
      "a non-boolean active",
      { name: "web", active: "false", config: { url: "https://e.com" } },
      "active",
      "invalid",
    ],
  ])("refuses %s", async (_label, body, field, code) => {
    expectValidationFailed(await call(sandbox.emulator, "POST", "/admin/hooks", { body }), field, code);
  });
});

describe("one global hook per URL", () => {
  it("refuses a second hook for a URL, on create and on a change of URL", async () => {
    await createGlobalHook(sandbox.emulator, { name: "web", config: { url: "https://example.com/dup" } });
    const second = await call(sandbox.emulator, "POST", "/admin/hooks", {
      body: { name: "web", config: { url: "https://example.com/dup" } },
    });
    expect(second.status).toBe(422);
    expect(second.body.errors).toEqual([
      { resource: "Hook", code: "custom", message: "Hook already exists on this installation" },
    ]);
    const other = await createGlobalHook(sandbox.emulator, {
      name: "web",
      config: { url: "https://example.com/b" },
    });
    const moved = await call(sandbox.emulator, "PATCH", `/admin/hooks/${other.id}`, {
      body: { config: { url: "https://example.com/dup" } },
    });
    expect(moved.status).toBe(422);
    expect((await call(sandbox.emulator, "GET", "/admin/hooks")).body).toHaveLength(2);
  });
});

describe("GET /admin/hooks and /admin/hooks/{hook_id}", () => {
  it("lists the global hooks and pages them", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await createGlobalHook(sandbox.emulator, { name: "web", config: { url: `https://e.com/${i}` } })).id,
      );
    }
    const all = await call(sandbox.emulator, "GET", "/admin/hooks");
    expect(all.status).toBe(200);
    expect(all.body.map((h: { id: number }) => h.id)).toEqual(ids);
    expect(all.body.every((h: { type: string }) => h.type === "Global")).toBe(true);
    const page = await call(sandbox.emulator, "GET", "/admin/hooks?per_page=2");
    expect(page.body.map((h: { id: number }) => h.id)).toEqual(ids.slice(0, 2));
    const next = parseLink(page.headers.get("link")).next;
    expect(next).toBeDefined();
    const rest = await call(sandbox.emulator, "GET", next as string);
    expect(rest.body.map((h: { id: number }) => h.id)).toEqual(ids.slice(2));
  });

  it("does not list repository hooks", async () => {
    await call(sandbox.emulator, "POST", "/repos/acme-eng/api/hooks", {
      body: { config: { url: "https://example.com/repo" } },
    });
    expect((await call(sandbox.emulator, "GET", "/admin/hooks")).body).toEqual([]);
  });

  it("answers 404 for an unknown hook", async () => {
    const response = await call(sandbox.emulator, "GET", "/admin/hooks/987654");
    expect(response.status).toBe(404);
    expectErrorBody(response.body, "Not Found");
  });
});

describe("PATCH /admin/hooks/{hook_id} resets omitted parameters", () => {
  async function fullHook() {
    return createGlobalHook(sandbox.emulator, {
      name: "web",
      active: false,
      events: ["repository", "fork"],
      config: { url: "https://example.com/full", content_type: "json", insecure_ssl: "1", secret: "s" },
    });
  }

  it("resets events to [user, organization] when omitted", async () => {
    const hook = await fullHook();
    const patch = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, {
      body: { active: false, config: { url: "https://example.com/full", content_type: "json" } },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.events).toEqual(["user", "organization"]);
    expect(patch.body.active).toBe(false);
  });

  it("resets active to true when omitted", async () => {
    const hook = await fullHook();
    const patch = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, {
      body: { events: ["repository"] },
    });
    expect(patch.body.active).toBe(true);
    expect(patch.body.events).toEqual(["repository"]);
  });

  it("removes the secret and resets content_type and insecure_ssl when config omits them", async () => {
    const hook = await fullHook();
    const patch = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, {
      body: { config: { url: "https://example.com/moved" } },
    });
    expect(patch.body.config).toEqual({
      url: "https://example.com/moved",
      content_type: "form",
      insecure_ssl: "0",
    });
  });

  it("keeps the secret only when it is sent again", async () => {
    const hook = await fullHook();
    const patch = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, {
      body: { config: { url: "https://example.com/full", content_type: "json", secret: "s" } },
    });
    expect(patch.body.config).toEqual({
      url: "https://example.com/full",
      content_type: "json",
      insecure_ssl: "0",
      secret: MASK,
    });
  });

  it("resets everything but the URL when the body is empty", async () => {
    const hook = await fullHook();
    const patch = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, { body: {} });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({
      id: hook.id,
      type: "Global",
      active: true,
      events: ["user", "organization"],
      config: { url: "https://example.com/full", content_type: "form", insecure_ssl: "0" },
    });
    expect(patch.body.config).not.toHaveProperty("secret");
    expect((await call(sandbox.emulator, "GET", `/admin/hooks/${hook.id}`)).body).toEqual(patch.body);
  });

  it("validates events against the global list", async () => {
    const hook = await fullHook();
    const response = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, {
      body: { events: ["push"] },
    });
    expectValidationFailed(response, "events", "invalid");
    expect((await call(sandbox.emulator, "GET", `/admin/hooks/${hook.id}`)).body.events).toEqual([
      "repository",
      "fork",
    ]);
  });

  // Spec, Endpoints, Global webhooks, PATCH: "config {url required when config sent, ...}".
  // The server takes the stored URL instead of refusing a config without url.
  it("requires config.url when config is sent (spec: url required when config sent)", async () => {
    const hook = await fullHook();
    const response = await call(sandbox.emulator, "PATCH", `/admin/hooks/${hook.id}`, {
      body: { config: { content_type: "json" } },
    });
    expectValidationFailed(response, "url", "missing_field");
  });

  it("answers 404 for an unknown hook", async () => {
    const response = await call(sandbox.emulator, "PATCH", "/admin/hooks/123456", { body: {} });
    expect(response.status).toBe(404);
  });
});

describe("DELETE and pings", () => {
  it("DELETE answers 204 and the hook is gone", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    const del = await call(sandbox.emulator, "DELETE", `/admin/hooks/${hook.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(sandbox.emulator, "GET", `/admin/hooks/${hook.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `/admin/hooks/${hook.id}`)).status).toBe(404);
  });

  it("a ping answers 204 and records a ping delivery for the hook", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    const before = await control(sandbox.emulator, "GET", "/state");
    expect(before.body.deliveries).toEqual([]);
    const ping = await call(sandbox.emulator, "POST", `/admin/hooks/${hook.id}/pings`);
    expect(ping.status).toBe(204);
    expect(ping.text).toBe("");
    const state = await control(sandbox.emulator, "GET", "/state");
    expect(state.body.deliveries).toHaveLength(1);
    expect(state.body.deliveries[0]).toMatchObject({
      hook_id: hook.id,
      event: "ping",
      status_code: 200,
      repository_id: null,
    });
  });

  it("deleting a hook removes its deliveries", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    await call(sandbox.emulator, "POST", `/admin/hooks/${hook.id}/pings`);
    await call(sandbox.emulator, "DELETE", `/admin/hooks/${hook.id}`);
    expect((await control(sandbox.emulator, "GET", "/state")).body.deliveries).toEqual([]);
  });

  it("a ping of an unknown hook is 404 and records nothing", async () => {
    const response = await call(sandbox.emulator, "POST", "/admin/hooks/777/pings");
    expect(response.status).toBe(404);
    expect((await control(sandbox.emulator, "GET", "/state")).body.deliveries).toEqual([]);
  });
});
