/** One line per failing resource: the host's stderr echo of an explained error is dropped. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { HostingApiError } from "../../../provider/client/errors";
import { PartialCreateError } from "../../../provider/internal/creates";
import { quietErrors } from "../../../provider/internal/quiet-errors";

/** What the engine's dynamic-provider host does with a failed method (cmd/dynamic-provider). */
async function host(method: () => Promise<unknown>): Promise<unknown> {
  try {
    return await method();
  } catch (e) {
    console.error(`${e}: ${(e as Error).stack}`);
    return e;
  }
}

function providerFailingWith(error: Error) {
  const fail = async () => {
    throw error;
  };
  return quietErrors({ check: fail, diff: fail, read: fail, update: fail, delete: fail });
}

afterEach(() => vi.restoreAllMocks());

describe("quietErrors", () => {
  it("drops the host's echo of an API error, which still reaches the engine", async () => {
    const printed: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    const error = new HostingApiError({ code: "unauthorized", status: 401, apiMessage: "Bad credentials" });
    const p = providerFailingWith(error);
    for (const method of [p.read, p.update, p.delete, p.diff, p.check]) {
      expect(await host(() => method())).toBe(error);
    }
    expect(printed).toEqual([]);
    console.error("something else");
    expect(printed).toEqual([["something else"]]);
  });

  it("drops every echo of one error that failed several resources at once (a shared list's read)", async () => {
    const printed: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    const error = new HostingApiError({ code: "unauthorized", status: 401, apiMessage: "Bad credentials" });
    const p = providerFailingWith(error);
    // Both reads fail before the host prints either.
    const failures = await Promise.allSettled([p.read(), p.read(), p.read()]);
    for (const _failure of failures) console.error(`${error}: ${error.stack}`);
    expect(failures.every((f) => f.status === "rejected")).toBe(true);
    expect(printed).toEqual([]);
  });

  it("drops the echo of a half-done create, and keeps the stack trace of a defect", async () => {
    const printed: string[] = [];
    vi.spyOn(console, "error").mockImplementation((text: string) => {
      printed.push(text);
    });
    const partial = new PartialCreateError("o/1", {}, new Error("PATCH failed"));
    await host(() => providerFailingWith(partial).read());
    expect(printed).toEqual([]);
    const defect = new TypeError("x is undefined");
    await host(() => providerFailingWith(defect).read());
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain("TypeError: x is undefined");
    expect(printed[0]).toContain("quiet-errors.test.ts");
  });
});
