/**
 * Request helpers every route shares (emulator/core/http.ts): path ids are plain decimal integers, and
 * request bodies have a size limit.
 */
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BODY_BYTES } from "../../../emulator/core/http";
import { call, expectErrorBody, fillRoute, servedRoutes, stateOf, TOKENS, useSandbox } from "../helpers";

const sandbox = useSandbox();

/** Spellings that JavaScript's Number() reads as `id` but that are not a plain decimal integer. */
function misspelt(id: string): string[] {
  return [
    `0x${Number(id).toString(16)}`,
    `${id}.0`,
    `%20%20${id}`,
    `${id}%20`,
    `${id}e0`,
    `0${id}`,
    `+${id}`,
    `-${id}`,
    `${id}n`,
    "0",
    "99999999999999999999",
  ];
}

const ID_PARAMS = ["hook_id", "runner_group_id", "runner_id", "org_id"];
const ROUTES_WITH_IDS = servedRoutes().filter((r) => ID_PARAMS.some((p) => r.includes(`:${p}`)));

describe("path ids", () => {
  // Eleven spellings of each id of every route with one: answered in process, each test from the
  // seeded world (the request bodies below go over real sockets).
  const sandbox = useSandbox({}, { inProcess: true, seeded: true });

  it("covers every route with an id parameter", () => {
    expect(ROUTES_WITH_IDS.length).toBeGreaterThanOrEqual(25);
  });

  it("serves the issue's examples as 404", async () => {
    const world = sandbox.world;
    expect(world.repoHook).toBe(1);
    for (const path of [
      "/repos/acme-eng/api/hooks/0x1",
      "/repos/acme-eng/api/hooks/1.0",
      "/repos/acme-eng/api/hooks/%20%201",
      `/admin/hooks/${world.globalHook}e0`,
      "/enterprises/acme/actions/runner-groups/0x1",
    ]) {
      const response = await call(sandbox.emulator, "GET", path);
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks/1")).status).toBe(200);
  });

  it("parses the id before anything about the object is checked", async () => {
    // Group 1 is the enterprise's default group (visibility all): a well-formed org_id is a 422.
    const groups = "/enterprises/acme/actions/runner-groups/1/organizations";
    expect((await call(sandbox.emulator, "PUT", `${groups}/100`)).status).toBe(422);
    expect((await call(sandbox.emulator, "PUT", `${groups}/0x64`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${groups}/1e2`)).status).toBe(404);
  });

  it.each(ROUTES_WITH_IDS)("%s: an id that is not a plain decimal integer is a 404", async (route) => {
    const world = sandbox.world;
    const before = await stateOf(sandbox.emulator);
    const [method, template] = route.split(" ") as [string, string];
    const body =
      method === "PUT" && template.endsWith("/runners")
        ? { runners: [] }
        : method === "PUT" && template.endsWith("/organizations")
          ? { selected_organization_ids: [] }
          : method === "PUT" && template.endsWith("/repositories")
            ? { selected_repository_ids: [] }
            : method === "GET" || method === "DELETE"
              ? undefined
              : {};
    for (const param of ID_PARAMS.filter((p) => template.includes(`:${p}`))) {
      const valid = fillRoute(`:${param}`, world).replace(/^:/, "");
      const id = template.startsWith("/admin/")
        ? String(world.globalHook)
        : param === "hook_id"
          ? String(world.repoHook)
          : valid;
      for (const spelling of misspelt(id)) {
        const path = fillRoute(template, world, { [param]: spelling });
        const response = await call(sandbox.emulator, method, path, body === undefined ? {} : { body });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });
});

describe("request body size", () => {
  const HOOKS = "/repos/acme-eng/api/hooks";
  const bodyOfSize = (bytes: number) => {
    const prefix = '{"config":{"url":"https://example.com/';
    const suffix = '"}}';
    return `${prefix}${"a".repeat(bytes - prefix.length - suffix.length)}${suffix}`;
  };

  it(`is limited to ${MAX_REQUEST_BODY_BYTES} bytes: a 20 MB URL is a 413 with the error body`, async () => {
    const rawBody = bodyOfSize(20 * 1024 * 1024);
    const response = await call(sandbox.emulator, "POST", HOOKS, { rawBody });
    expect(response.status).toBe(413);
    expectErrorBody(response.body, /larger than the limit/);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toEqual([]);
  });

  it("accepts a body of exactly the limit and refuses one byte more", async () => {
    const atLimit = await call(sandbox.emulator, "POST", HOOKS, {
      rawBody: bodyOfSize(MAX_REQUEST_BODY_BYTES),
    });
    expect(atLimit.status).toBe(201);
    const over = await call(sandbox.emulator, "PATCH", `${HOOKS}/${atLimit.body.id}/config`, {
      rawBody: bodyOfSize(MAX_REQUEST_BODY_BYTES + 1),
    });
    expect(over.status).toBe(413);
  });

  it("counts the bytes of a body sent without content-length (chunked)", async () => {
    const chunk = new TextEncoder().encode("a".repeat(256 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"config":{"url":"https://example.com/'));
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}}'));
        controller.close();
      },
    });
    const response = await fetch(`${sandbox.emulator.url}${HOOKS}`, {
      method: "POST",
      headers: { authorization: "Bearer svcp_siteadmin", "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get("content-length")).not.toBe("0");
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toEqual([]);
  });

  it("authenticates before it reads: a large anonymous body is a 401", async () => {
    const response = await call(sandbox.emulator, "POST", HOOKS, {
      token: null,
      rawBody: bodyOfSize(4 * MAX_REQUEST_BODY_BYTES),
    });
    expect(response.status).toBe(401);
  });
});

describe("outside the API root", () => {
  it("answers an HTML page, as the platform's web front does, so a wrong API root shows", async () => {
    const response = await fetch(`${sandbox.emulator.origin}/api/v4/repos/acme-eng/api/hooks`, {
      headers: { authorization: `Bearer ${TOKENS.siteAdmin}` },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
  });
});
