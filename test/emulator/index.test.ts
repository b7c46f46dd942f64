/**
 * `startEmulator()`'s server answering in process (`RunningEmulator.fetch`): the answers it gives
 * over HTTP, from the same state, and a dropped connection as `fetch` meets it; and the test
 * helpers' in-process dispatch (`dispatchInProcess`), which follows redirects as `fetch` does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { call, control, dispatchInProcess, TOKENS } from "./helpers";

const HOOKS = "/repos/acme-eng/api/hooks";
const POLICIES = "/repos/acme-eng/api/environments/release%2Feu/deployment-branch-policies";

let overHttp: RunningEmulator;
let inProcess: RunningEmulator;

beforeAll(async () => {
  // Two servers: `call` reaches the first over HTTP and the second in process.
  overHttp = await startEmulator({ port: 0 });
  inProcess = await startEmulator({ port: 0 });
  dispatchInProcess(inProcess);
});

afterAll(async () => {
  await overHttp?.close();
  await inProcess?.close();
});

beforeEach(async () => {
  for (const emulator of [overHttp, inProcess]) {
    expect((await control(emulator, "POST", "/reset")).status).toBe(204);
  }
});

const request = (emulator: RunningEmulator, method: string, path: string, body?: unknown): Request =>
  new Request(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKENS.siteAdmin}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("RunningEmulator.fetch", () => {
  it("answers what the server answers over HTTP, from the same state", async () => {
    const created = await inProcess.fetch(
      request(inProcess, "POST", HOOKS, { config: { url: "https://example.com/in-process" } }),
    );
    expect(created.status).toBe(201);
    const hook = (await created.json()) as { id: number; url: string };
    // Links are made from the request's URL: this server's API root.
    expect(hook.url).toBe(`${inProcess.url}${HOOKS}/${hook.id}`);
    const viaHttp = await fetch(request(inProcess, "GET", `${HOOKS}/${hook.id}`));
    const viaFetch = await inProcess.fetch(request(inProcess, "GET", `${HOOKS}/${hook.id}`));
    expect(viaFetch.status).toBe(viaHttp.status);
    expect(await viaFetch.json()).toEqual(await viaHttp.json());
    for (const name of ["content-type", "etag", "x-oauth-scopes", "x-accepted-service-permissions"]) {
      expect(viaFetch.headers.get(name), name).toBe(viaHttp.headers.get(name));
    }
  });

  it("answers a refused request as over HTTP", async () => {
    const unknown = new Request(`${inProcess.url}${HOOKS}`, {
      headers: { authorization: "Bearer svcp_unknown" },
    });
    const viaFetch = await inProcess.fetch(unknown);
    expect(viaFetch.status).toBe(401);
    expect(await viaFetch.json()).toEqual(await (await fetch(unknown.clone())).json());
  });

  it("rejects as fetch does when a fault drops the connection, which the log records as status 0", async () => {
    await control(inProcess, "POST", "/faults", { method: "GET", path: "/user", drop: true });
    await expect(inProcess.fetch(request(inProcess, "GET", "/user"))).rejects.toThrow(
      new TypeError("fetch failed"),
    );
    const log = (await control(inProcess, "GET", "/requests")).body.requests;
    expect(log.at(-1)).toMatchObject({ method: "GET", path: "/user", status: 0 });
    // The fault was used once: the next request is answered.
    expect((await inProcess.fetch(request(inProcess, "GET", "/user"))).status).toBe(200);
  });
});

describe("the helpers' in-process dispatch", () => {
  it("follows a 303 to a GET, as fetch does over HTTP", async () => {
    const answers: Array<{ again: unknown[]; manual: [number, string | null] }> = [];
    for (const emulator of [overHttp, inProcess]) {
      const environment = "/repos/acme-eng/api/environments/release%2Feu";
      const custom = { protected_branches: false, custom_branch_policies: true };
      expect(
        (await call(emulator, "PUT", environment, { body: { deployment_branch_policy: custom } })).status,
      ).toBe(200);
      const first = await call(emulator, "POST", POLICIES, { body: { name: "main" } });
      expect(first.status, first.text).toBe(200);
      // The same pattern again: a 303 to the one the environment has, which fetch follows.
      const again = await call(emulator, "POST", POLICIES, { body: { name: "main" } });
      const manual = await call(emulator, "POST", POLICIES, { body: { name: "main" }, redirect: "manual" });
      answers.push({
        again: [again.status, again.body],
        manual: [manual.status, manual.headers.get("location")],
      });
      expect(again.body.id).toBe(first.body.id);
      const log = (await control(emulator, "GET", "/requests")).body.requests;
      expect(log.slice(-3).map((r: { method: string; status: number }) => `${r.method} ${r.status}`)).toEqual(
        ["POST 303", "GET 200", "POST 303"],
      );
    }
    const [http, local] = answers;
    expect(local?.again).toEqual(http?.again);
    expect(local?.manual[0]).toBe(303);
    expect(local?.manual[1]?.replace(inProcess.origin, "")).toBe(
      http?.manual[1]?.replace(overHttp.origin, ""),
    );
  });

  it("sends a body's length, by which the server refuses a large body at once", async () => {
    const rawBody = JSON.stringify({
      config: { url: "https://example.com/x" },
      pad: "x".repeat(2 * 1024 * 1024),
    });
    const answers: unknown[][] = [];
    for (const emulator of [overHttp, inProcess]) {
      const response = await call(emulator, "POST", HOOKS, { rawBody });
      answers.push([response.status, response.body.message, response.headers.get("connection")]);
    }
    expect(answers[1]).toEqual([413, answers[0]?.[1], null]);
    expect(answers[0]?.[0]).toBe(413);
  });
});
