import { afterEach, describe, expect, it } from "vitest";
import { type ObservedResponse, observed, observeResponses } from "../../../emulator/core/observe";
import { call, control, TOKENS, useSandbox } from "../helpers";

const sandbox = useSandbox();
let stop: (() => void) | undefined;
afterEach(() => stop?.());

function record(): ObservedResponse[] {
  const seen: ObservedResponse[] = [];
  stop = observeResponses((r) => seen.push(r));
  return seen;
}

describe("response observers", () => {
  it("see each API answer with its route template, status, content type and body", async () => {
    const seen = record();
    expect(observed()).toBe(true);
    const res = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks?per_page=1", {
      token: TOKENS.owner,
    });
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      {
        method: "GET",
        route: "/repos/{owner}/{repo}/hooks",
        path: "/repos/acme-eng/api/hooks",
        status: 200,
        contentType: "application/json",
        body: res.text,
      },
    ]);
  });

  it("see errors, unknown paths and empty bodies, and the client still reads the whole body", async () => {
    const seen = record();
    const missing = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks/999", {
      token: TOKENS.owner,
    });
    const unknown = await call(sandbox.emulator, "GET", "/no/such/path", { token: TOKENS.owner });
    expect(missing.body.message).toBe("Not Found");
    expect(seen.map((r) => [r.route, r.status, r.body])).toEqual([
      ["/repos/{owner}/{repo}/hooks/{hook_id}", 404, missing.text],
      ["(unmatched)", 404, unknown.text],
    ]);
  });

  it("stop seeing answers once removed; control routes are never observed", async () => {
    const seen = record();
    await control(sandbox.emulator, "GET", "/faults");
    stop?.();
    await call(sandbox.emulator, "GET", "/user", { token: TOKENS.owner });
    expect(seen).toEqual([]);
  });

  it("do not see a request whose connection a fault dropped", async () => {
    const seen = record();
    await control(sandbox.emulator, "POST", "/faults", { path: "/user", drop: true });
    await expect(call(sandbox.emulator, "GET", "/user", { token: TOKENS.owner })).rejects.toThrow();
    await call(sandbox.emulator, "GET", "/user", { token: TOKENS.owner });
    expect(seen.map((r) => [r.route, r.status])).toEqual([["/user", 200]]);
  });
});
