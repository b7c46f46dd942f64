/**
 * Repository webhooks: every route of the spec's table H (Endpoints, Repository webhooks), the
 * webhook resource shape (Concepts, Repository webhook), validation errors, pagination and Limits.
 */
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import { type RunningEmulator, startEmulator } from "../../../../emulator/index";
import { descriptionFile } from "../../../conformance/description";
import {
  type ApiResponse,
  call,
  control,
  createRepoHook,
  expectErrorBody,
  expectValidationFailed,
  MASK,
  parseLink,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const HOOKS = "/repos/acme-eng/api/hooks";
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe("POST H (create)", () => {
  it("applies the defaults and answers 201 with the full webhook", async () => {
    const response = await call(sandbox.emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/hook" } },
    });
    expect(response.status).toBe(201);
    const hook = response.body;
    expect(hook).toMatchObject({
      type: "Repository",
      name: "web",
      active: true,
      events: ["push"],
      config: { url: "https://example.com/hook", content_type: "form", insecure_ssl: "0" },
      last_response: { code: null, status: "unused", message: null },
    });
    expect(Number.isInteger(hook.id)).toBe(true);
    expect(hook.config).not.toHaveProperty("secret");
    expect(hook.created_at).toMatch(ISO_SECONDS);
    expect(hook.updated_at).toMatch(ISO_SECONDS);
    const base = `${sandbox.emulator.url}/repos/acme-eng/api/hooks/${hook.id}`;
    expect(hook.url).toBe(base);
    expect(hook.ping_url).toBe(`${base}/pings`);
    expect(hook.test_url).toBe(`${base}/tests`);
    expect(hook.deliveries_url).toBe(`${base}/deliveries`);
    for (const key of ["url", "ping_url", "test_url", "deliveries_url"]) {
      expect(new URL(hook[key]).origin).toBe(sandbox.emulator.origin);
    }
  });

  it("takes every field given", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      name: "web",
      active: false,
      events: ["push", "pull_request"],
      config: { url: "http://ci.example.com/x", content_type: "json", insecure_ssl: "1", secret: "s3cret" },
    });
    expect(hook).toMatchObject({
      active: false,
      events: ["push", "pull_request"],
      config: { url: "http://ci.example.com/x", content_type: "json", insecure_ssl: "1", secret: MASK },
    });
  });

  it.each([
    [1, "1"],
    ["1", "1"],
    [0, "0"],
    ["0", "0"],
  ])("normalises insecure_ssl %j to the string %j", async (given, stored) => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/ssl", insecure_ssl: given },
    });
    expect(hook.config.insecure_ssl).toBe(stored);
  });

  it("never returns the secret in clear", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/secret", secret: "top-secret-value" },
    });
    expect(hook.config.secret).toBe(MASK);
    const get = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    const list = await call(sandbox.emulator, "GET", HOOKS);
    const config = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`);
    expect(get.body.config.secret).toBe(MASK);
    expect(list.body[0].config.secret).toBe(MASK);
    expect(config.body.secret).toBe(MASK);
    for (const text of [get.text, list.text, config.text]) expect(text).not.toContain("top-secret-value");
  });

  it("allocates distinct ids", async () => {
    const a = await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/a" } });
    const b = await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/b" } });
    expect(b.id).not.toBe(a.id);
  });

  it("allows the same URL on another repository", async () => {
    await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/same" } }, "acme-eng/api");
    const other = await createRepoHook(
      sandbox.emulator,
      { config: { url: "https://example.com/same" } },
      "acme-eng/web",
    );
    expect(other.url).toContain("/repos/acme-eng/web/hooks/");
  });

  it("treats owner and repository names case-insensitively", async () => {
    const hook = await createRepoHook(sandbox.emulator, undefined, "ACME-eng/API");
    const get = await call(sandbox.emulator, "GET", `/repos/acme-eng/api/hooks/${hook.id}`);
    expect(get.status).toBe(200);
    expect(get.body.id).toBe(hook.id);
  });
});

describe("validation errors (422 with errors[])", () => {
  it.each([
    [
      "a bad content_type",
      { config: { url: "https://example.com/x", content_type: "xml" } },
      "content_type",
      "invalid",
    ],
    ["a URL that is not http(s)", { config: { url: "ftp://example.com/x" } }, "url", "invalid"],
    ["a URL that is not a URL", { config: { url: "not a url" } }, "url", "invalid"],
    ["a non-string URL", { config: { url: 42 } }, "url", "invalid"],
    ["a missing config", { events: ["push"] }, "config", "missing_field"],
    ["a config that is not an object", { config: "https://example.com/x" }, "config", "invalid"],
    ["a missing config.url", { config: { content_type: "json" } }, "url", "missing_field"],
    ["an empty config.url", { config: { url: "" } }, "url", "missing_field"],
    [
      "an unknown event",
      { config: { url: "https://example.com/x" }, events: ["push", "no_such_event"] },
      "events",
      "invalid",
    ],
    [
      "events that are not an array",
      { config: { url: "https://example.com/x" }, events: "push" },
      "events",
      "invalid",
    ],
    [
      "insecure_ssl 2",
      { config: { url: "https://example.com/x", insecure_ssl: 2 } },
      "insecure_ssl",
      "invalid",
    ],
    [
      "insecure_ssl true",
      { config: { url: "https://example.com/x", insecure_ssl: true } },
      "insecure_ssl",
      "invalid",
    ],
    ["a name other than web", { name: "email", config: { url: "https://example.com/x" } }, "name", "custom"],
    [
      "active that is not a boolean",
      { config: { url: "https://example.com/x" }, active: "yes" },
      "active",
      "invalid",
    ],
  ])("refuses %s", async (_label, body, field, code) => {
    const response = await call(sandbox.emulator, "POST", HOOKS, { body });
    expectValidationFailed(response, field, code);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toEqual([]);
  });

  it("names the bad events in the message", async () => {
    const response = await call(sandbox.emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/x" }, events: ["bogus"] },
    });
    expect(response.body.errors[0].message).toContain("bogus");
  });

  it("refuses a duplicate URL on the same repository", async () => {
    await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/dup" } });
    const response = await call(sandbox.emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/dup", content_type: "json" } },
    });
    expect(response.status).toBe(422);
    expectErrorBody(response.body, "Validation Failed");
    expect(response.body.errors).toEqual([
      { resource: "Hook", code: "custom", message: "Hook already exists on this repository" },
    ]);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toHaveLength(1);
  });

  it("refuses changing a hook's URL to another hook's URL", async () => {
    await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/one" } });
    const two = await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/two" } });
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${two.id}`, {
      body: { config: { url: "https://example.com/one" } },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors[0].message).toBe("Hook already exists on this repository");
    const viaConfig = await call(sandbox.emulator, "PATCH", `${HOOKS}/${two.id}/config`, {
      body: { url: "https://example.com/one" },
    });
    expect(viaConfig.status).toBe(422);
    const same = await call(sandbox.emulator, "PATCH", `${HOOKS}/${two.id}`, {
      body: { config: { url: "https://example.com/two" } },
    });
    expect(same.status).toBe(200);
  });

  it("answers 400 to a body that is not JSON", async () => {
    const response = await call(sandbox.emulator, "POST", HOOKS, { rawBody: "{not json" });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, "Problems parsing JSON");
    expect(response.body).not.toHaveProperty("errors");
  });

  it("refuses bad values on PATCH without changing the hook", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    for (const body of [
      { events: ["nope"] },
      { add_events: ["nope"] },
      { remove_events: "push" },
      { config: { url: "https://example.com/hook", content_type: "yaml" } },
      { active: 1 },
    ]) {
      const response = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, { body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expectErrorBody(response.body, "Validation Failed");
    }
    const after = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    expect(after.body).toEqual(hook);
  });
});

describe("GET H and GET H/{hook_id}", () => {
  it("lists only the hooks of the repository", async () => {
    const api = await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/api" } });
    await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/web" } }, "acme-eng/web");
    const list = await call(sandbox.emulator, "GET", HOOKS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([api]);
  });

  it("returns the hook as created", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      events: ["issues"],
      config: { url: "https://example.com/g", secret: "x" },
    });
    const get = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(hook);
  });

  it("answers 404 for an unknown hook, a hook of another repository and an unknown repository", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    for (const path of [
      `${HOOKS}/999999`,
      `/repos/acme-eng/web/hooks/${hook.id}`,
      "/repos/acme-eng/nope/hooks",
      "/repos/nobody/api/hooks",
      `/repos/acme-eng/nope/hooks/${hook.id}`,
    ]) {
      const response = await call(sandbox.emulator, "GET", path);
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    const post = await call(sandbox.emulator, "POST", "/repos/acme-eng/nope/hooks", {
      body: { config: { url: "https://example.com/x" } },
    });
    expect(post.status).toBe(404);
  });
});

describe("PATCH H/{hook_id}", () => {
  it("replaces events and keeps everything not sent", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/p", content_type: "json", insecure_ssl: 1, secret: "keep" },
    });
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { events: ["pull_request", "issues"] },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.events).toEqual(["pull_request", "issues"]);
    expect(patch.body.active).toBe(true);
    expect(patch.body.config).toEqual({
      url: "https://example.com/p",
      content_type: "json",
      insecure_ssl: "1",
      secret: MASK,
    });
    expect(patch.body.id).toBe(hook.id);
    expect(patch.body.created_at).toBe(hook.created_at);
  });

  it("adds and removes events", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      events: ["push", "issues"],
      config: { url: "https://example.com/e" },
    });
    const add = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { add_events: ["pull_request", "push"] },
    });
    expect(add.status).toBe(200);
    expect([...add.body.events].sort()).toEqual(["issues", "pull_request", "push"]);
    const remove = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { remove_events: ["issues", "release"] },
    });
    expect([...remove.body.events].sort()).toEqual(["pull_request", "push"]);
    const both = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { events: ["issues"], add_events: ["release"], remove_events: ["issues"] },
    });
    expect(both.body.events).toEqual(["release"]);
  });

  it("switches active", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const off = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, { body: { active: false } });
    expect(off.body.active).toBe(false);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`)).body.active).toBe(false);
    const on = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, { body: { active: true } });
    expect(on.body.active).toBe(true);
  });

  it("keeps the whole config, secret included, when config is not sent", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/k", content_type: "json", secret: "abc" },
    });
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, { body: { active: false } });
    expect(patch.body.config).toEqual(hook.config);
    expect(patch.body.config.secret).toBe(MASK);
  });

  it("removes a previously set secret when config is sent without it", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/s", secret: "abc" },
    });
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { config: { url: "https://example.com/s", content_type: "json" } },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.config).toEqual({
      url: "https://example.com/s",
      content_type: "json",
      insecure_ssl: "0",
    });
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`)).body).not.toHaveProperty(
      "secret",
    );
  });

  it("keeps the secret when the same secret is sent, and takes a new one", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/s2", secret: "abc" },
    });
    const same = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { config: { url: "https://example.com/s2", secret: "abc" } },
    });
    expect(same.body.config.secret).toBe(MASK);
    const changed = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { config: { url: "https://example.com/s2", secret: "def" } },
    });
    expect(changed.body.config.secret).toBe(MASK);
    const state = (await control(sandbox.emulator, "GET", "/state")).body;
    const stored = state.repoHooks.find((h: { id: number }) => h.id === hook.id);
    expect(stored.config.secret).toBe("def");
  });

  it("keeps the stored URL and settings of config fields not sent", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/u", content_type: "json", insecure_ssl: "1" },
    });
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      body: { config: { url: "https://example.com/u2" } },
    });
    expect(patch.body.config).toEqual({
      url: "https://example.com/u2",
      content_type: "json",
      insecure_ssl: "1",
    });
  });

  it("answers 404 for an unknown hook", async () => {
    const response = await call(sandbox.emulator, "PATCH", `${HOOKS}/424242`, { body: { active: false } });
    expect(response.status).toBe(404);
    expectErrorBody(response.body, "Not Found");
  });
});

describe("DELETE H/{hook_id}", () => {
  it("answers 204 with no body, then the hook is gone", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const del = await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toEqual([]);
    const again = await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`);
    expect(again.status).toBe(404);
  });

  it("deletes the hook's deliveries with it", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`);
    const state = (await control(sandbox.emulator, "GET", "/state")).body;
    expect(state.deliveries).toEqual([]);
  });
});

describe("H/{hook_id}/config", () => {
  it("GET returns the config alone, with the secret masked", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/c", content_type: "json", insecure_ssl: 1, secret: "shh" },
    });
    const response = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      url: "https://example.com/c",
      content_type: "json",
      insecure_ssl: "1",
      secret: MASK,
    });
  });

  it("GET has no secret key when no secret is set", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const response = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`);
    expect(response.body).toEqual({
      url: "https://example.com/hook",
      content_type: "form",
      insecure_ssl: "0",
    });
  });

  it("PATCH updates the fields sent and returns the config", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const response = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, {
      body: { content_type: "json", insecure_ssl: "1", secret: "new" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      url: "https://example.com/hook",
      content_type: "json",
      insecure_ssl: "1",
      secret: MASK,
    });
    const get = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    expect(get.body.config).toEqual(response.body);
    expect(get.body.events).toEqual(["push"]);
  });

  it("PATCH without the secret removes a previously set one", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/c2", secret: "old" },
    });
    const response = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, {
      body: { url: "https://example.com/c3" },
    });
    expect(response.body).toEqual({ url: "https://example.com/c3", content_type: "form", insecure_ssl: "0" });
  });

  it("PATCH validates like create", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    expectValidationFailed(
      await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { body: { url: "mailto:x@y" } }),
      "url",
      "invalid",
    );
    expectValidationFailed(
      await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { body: { insecure_ssl: "2" } }),
      "insecure_ssl",
      "invalid",
    );
  });

  it("answers 404 for an unknown hook", async () => {
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/31337/config`)).status).toBe(404);
    expect((await call(sandbox.emulator, "PATCH", `${HOOKS}/31337/config`, { body: {} })).status).toBe(404);
  });
});

describe("pings, tests and deliveries", () => {
  it("last_response stays unused until a delivery, then reports 200", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    expect(hook.last_response).toEqual({ code: null, status: "unused", message: null });
    const before = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual([]);

    const ping = await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    expect(ping.status).toBe(204);
    expect(ping.text).toBe("");

    const after = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    expect(after.body.last_response.code).toBe(200);
    expect(after.body.last_response.status).not.toBe("unused");
    const deliveries = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries`);
    expect(deliveries.body).toHaveLength(1);
    expect(deliveries.body[0]).toMatchObject({
      event: "ping",
      status_code: 200,
      redelivery: false,
      repository_id: 1000,
    });
    expect(deliveries.body[0].guid).toMatch(/^[0-9a-f-]{36}$/);
    expect(deliveries.body[0].delivered_at).toMatch(ISO_SECONDS);
  });

  it("a test delivers a push event to a hook subscribed to push, and nothing otherwise", async () => {
    const push = await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/push" } });
    const issues = await createRepoHook(sandbox.emulator, {
      events: ["issues"],
      config: { url: "https://example.com/issues" },
    });
    expect((await call(sandbox.emulator, "POST", `${HOOKS}/${push.id}/tests`)).status).toBe(204);
    expect((await call(sandbox.emulator, "POST", `${HOOKS}/${issues.id}/tests`)).status).toBe(204);
    const pushDeliveries = await call(sandbox.emulator, "GET", `${HOOKS}/${push.id}/deliveries`);
    expect(pushDeliveries.body.map((d: { event: string }) => d.event)).toEqual(["push"]);
    const issueDeliveries = await call(sandbox.emulator, "GET", `${HOOKS}/${issues.id}/deliveries`);
    expect(issueDeliveries.body).toEqual([]);
  });

  it("lists deliveries newest first and pages them by cursor through the Link header", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    for (let i = 0; i < 3; i++) await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    const all = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries`);
    const ids = all.body.map((d: { id: number }) => d.id);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    expect(all.headers.get("link")).toBeNull();

    const first = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries?per_page=2`);
    expect(first.body.map((d: { id: number }) => d.id)).toEqual(ids.slice(0, 2));
    const next = parseLink(first.headers.get("link")).next;
    expect(next).toBeDefined();
    expect(new URL(next as string).searchParams.get("cursor")).toBe(String(ids[2]));
    const second = await call(sandbox.emulator, "GET", next as string);
    expect(second.body.map((d: { id: number }) => d.id)).toEqual([ids[2]]);
    const secondLinks = parseLink(second.headers.get("link"));
    expect(secondLinks.next).toBeUndefined();
    expect(new URL(secondLinks.prev as string).searchParams.get("cursor")).toBe(String(ids[0]));
  });

  it("walks back through the pages by rel=prev, with no prev on the first page", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    for (let i = 0; i < 5; i++) await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    const ids = (await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries`)).body.map(
      (d: { id: number }) => d.id,
    );
    const pages: number[][] = [];
    let url: string | undefined = `${HOOKS}/${hook.id}/deliveries?per_page=2`;
    let last: string | undefined;
    while (url) {
      const page: ApiResponse = await call(sandbox.emulator, "GET", url);
      pages.push(page.body.map((d: { id: number }) => d.id));
      last = url;
      url = parseLink(page.headers.get("link")).next;
    }
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    const back: number[][] = [];
    url = last;
    while (url) {
      const page: ApiResponse = await call(sandbox.emulator, "GET", url);
      back.push(page.body.map((d: { id: number }) => d.id));
      url = parseLink(page.headers.get("link")).prev;
    }
    expect(back).toEqual([...pages].reverse());
  });

  it.each(["99999", "x", "0x1", "-1", "1.5"])(
    "answers 422 naming cursor to the cursor %j",
    async (cursor) => {
      const hook = await createRepoHook(sandbox.emulator);
      await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
      const response = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries?cursor=${cursor}`);
      expectValidationFailed(response, "cursor", "invalid");
    },
  );

  it("answers 422 to a cursor naming a delivery of another hook", async () => {
    const one = await createRepoHook(sandbox.emulator);
    const two = await createRepoHook(sandbox.emulator, { config: { url: "https://example.com/two" } });
    await call(sandbox.emulator, "POST", `${HOOKS}/${one.id}/pings`);
    const [delivery] = (await call(sandbox.emulator, "GET", `${HOOKS}/${one.id}/deliveries`)).body;
    const response = await call(
      sandbox.emulator,
      "GET",
      `${HOOKS}/${two.id}/deliveries?cursor=${delivery.id}`,
    );
    expectValidationFailed(response, "cursor", "invalid");
  });

  it("reads an empty cursor as no cursor", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    const response = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries?cursor=`);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
  });

  it("pings and deliveries of an unknown hook are 404", async () => {
    expect((await call(sandbox.emulator, "POST", `${HOOKS}/5555/pings`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/5555/deliveries`)).status).toBe(404);
  });
});

describe("pagination (Limits: per_page default 30, max 100)", () => {
  async function create35(): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < 35; i++) {
      const hook = await createRepoHook(sandbox.emulator, {
        config: { url: `https://example.com/hook/${i}` },
      });
      ids.push(hook.id);
    }
    return ids;
  }

  it("returns 30 a page by default, with next and last links that can be followed", async () => {
    const ids = await create35();
    const first = await call(sandbox.emulator, "GET", HOOKS);
    expect(first.body).toHaveLength(30);
    expect(first.body.map((h: { id: number }) => h.id)).toEqual(ids.slice(0, 30));
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    for (const url of Object.values(links)) {
      expect(url.startsWith(`${sandbox.emulator.url}/repos/acme-eng/api/hooks?`)).toBe(true);
    }
    const next = new URL(links.next as string);
    expect(next.searchParams.get("page")).toBe("2");
    expect(next.searchParams.get("per_page")).toBe("30");
    expect(new URL(links.last as string).searchParams.get("page")).toBe("2");

    const second = await call(sandbox.emulator, "GET", links.next as string);
    expect(second.status).toBe(200);
    expect(second.body.map((h: { id: number }) => h.id)).toEqual(ids.slice(30));
    const secondLinks = parseLink(second.headers.get("link"));
    expect(secondLinks.next).toBeUndefined();
    expect(new URL(secondLinks.prev as string).searchParams.get("page")).toBe("1");
    expect(new URL(secondLinks.first as string).searchParams.get("page")).toBe("1");
    expect(new URL(secondLinks.last as string).searchParams.get("page")).toBe("2");
  });

  it("page=2 returns the rest", async () => {
    const ids = await create35();
    const second = await call(sandbox.emulator, "GET", `${HOOKS}?page=2`);
    expect(second.body.map((h: { id: number }) => h.id)).toEqual(ids.slice(30));
  });

  it("per_page=100 returns everything without a Link header", async () => {
    const ids = await create35();
    const all = await call(sandbox.emulator, "GET", `${HOOKS}?per_page=100`);
    expect(all.body.map((h: { id: number }) => h.id)).toEqual(ids);
    expect(all.headers.get("link")).toBeNull();
  });

  it("per_page above 100 is clamped to 100", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 101; i++) {
      ids.push(
        (await createRepoHook(sandbox.emulator, { config: { url: `https://example.com/n/${i}` } })).id,
      );
    }
    const page = await call(sandbox.emulator, "GET", `${HOOKS}?per_page=500`);
    expect(page.body).toHaveLength(100);
    const links = parseLink(page.headers.get("link"));
    expect(new URL(links.next as string).searchParams.get("per_page")).toBe("100");
    const rest = await call(sandbox.emulator, "GET", links.next as string);
    expect(rest.body.map((h: { id: number }) => h.id)).toEqual([ids[100]]);
  });

  it("per_page=500 on 35 hooks returns all 35 on one page", async () => {
    await create35();
    const page = await call(sandbox.emulator, "GET", `${HOOKS}?per_page=500`);
    expect(page.body).toHaveLength(35);
    expect(page.headers.get("link")).toBeNull();
  });

  it("sends no Link header when everything fits on one page", async () => {
    await createRepoHook(sandbox.emulator);
    const response = await call(sandbox.emulator, "GET", HOOKS);
    expect(response.body).toHaveLength(1);
    expect(response.headers.get("link")).toBeNull();
  });

  it("answers an empty page beyond the last", async () => {
    await createRepoHook(sandbox.emulator);
    const response = await call(sandbox.emulator, "GET", `${HOOKS}?page=5`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("falls back to the defaults for unusable values", async () => {
    await create35();
    const response = await call(sandbox.emulator, "GET", `${HOOKS}?per_page=abc&page=0`);
    expect(response.body).toHaveLength(30);
  });
});

describe("owner and admin tokens", () => {
  it("svcp_owner runs the whole cycle on acme-eng/api", async () => {
    const token = TOKENS.owner;
    const hook = await createRepoHook(sandbox.emulator, undefined, "acme-eng/api", token);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`, { token })).status).toBe(200);
    expect(
      (await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, { token, body: { active: false } }))
        .status,
    ).toBe(200);
    expect((await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`, { token })).status).toBe(204);
    expect((await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`, { token })).status).toBe(204);
  });
});

describe("H/{hook_id}/config: the rest of table H and the description's webhook-config", () => {
  /** A second server whose fixture adds tokens holding one webhook permission each. */
  let scoped: RunningEmulator;
  beforeAll(async () => {
    const fixture = defaultFixture();
    fixture.tokens.svcp_hookwrite = {
      kind: "classic",
      user: "olivia",
      scopes: ["write:repo_hook"],
      permissions: {},
    };
    fixture.tokens.svc_pat_hookread = {
      kind: "fine_grained",
      user: "admin",
      scopes: [],
      permissions: { repository_hooks: "read" },
    };
    scoped = await startEmulator({ port: 0, fixture });
  });
  afterAll(async () => {
    await scoped?.close();
  });

  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  ajv.addSchema(JSON.parse(readFileSync(descriptionFile("ghes-3.19"), "utf8")), "openapi");
  const validConfig = ajv.compile({ $ref: "openapi#/components/schemas/webhook-config" });

  it("GET and PATCH bodies satisfy the description's webhook-config", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/schema", secret: "s", insecure_ssl: 1 },
    });
    const get = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`);
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, {
      body: { content_type: "json" },
    });
    for (const body of [get.body, patch.body]) {
      expect(validConfig(body), JSON.stringify(validConfig.errors)).toBe(true);
      expect(
        Object.keys(body).every((k) => ["content_type", "insecure_ssl", "secret", "url"].includes(k)),
      ).toBe(true);
    }
  });

  it("PATCH with an empty body keeps url, content_type and insecure_ssl and removes the secret", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/empty", content_type: "json", insecure_ssl: "1", secret: "s" },
    });
    const response = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      url: "https://example.com/empty",
      content_type: "json",
      insecure_ssl: "1",
    });
  });

  it("PATCH takes insecure_ssl as a number and answers it as a string", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    for (const [given, answered] of [
      [1, "1"],
      [0, "0"],
    ] as const) {
      const response = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, {
        body: { insecure_ssl: given },
      });
      expect(response.body.insecure_ssl).toBe(answered);
    }
  });

  it("PATCH refuses a content_type other than json or form, and changes nothing", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    expectValidationFailed(
      await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { body: { content_type: "xml" } }),
      "content_type",
      "invalid",
    );
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`)).body.content_type).toBe(
      "form",
    );
  });

  it("PATCH leaves the hook's active state and events alone", async () => {
    const hook = await createRepoHook(sandbox.emulator, {
      config: { url: "https://example.com/ev" },
      events: ["push", "pull_request"],
      active: false,
    });
    await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, {
      body: { url: "https://example.com/ev2" },
    });
    const after = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    expect(after.body).toMatchObject({
      active: false,
      events: ["push", "pull_request"],
      config: { url: "https://example.com/ev2" },
    });
  });

  it("write:repo_hook reads and writes the config; a read-only fine-grained token only reads it", async () => {
    const hook = await createRepoHook(scoped, { config: { url: "https://example.com/scoped" } });
    const path = `${HOOKS}/${hook.id}/config`;
    const write = "svcp_hookwrite";
    expect((await call(scoped, "GET", path, { token: write })).status).toBe(200);
    const patched = await call(scoped, "PATCH", path, { token: write, body: { content_type: "json" } });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("x-accepted-oauth-scopes")).toBe("write:repo_hook, repo");
    const read = "svc_pat_hookread";
    const got = await call(scoped, "GET", path, { token: read });
    expect(got.status).toBe(200);
    expect(got.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=read");
    const refused = await call(scoped, "PATCH", path, { token: read, body: { content_type: "form" } });
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, "Resource not accessible by personal access token");
    expect(refused.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=write");
    expect((await call(scoped, "GET", path)).body.content_type).toBe("json");
  });
});
