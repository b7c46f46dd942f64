/**
 * The base resource class constructs through the SDK with no stack frames captured for the SDK's
 * promises, restores the program's limit afterwards, keeps the frames when the SDK's promise-leak
 * debugging is on, and gives an error thrown inside the SDK's constructor the program's stack.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RepositoryWebhook } from "../../../provider/index";

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: () => ({}),
    },
    "project",
    "stack",
    true,
  );
});

const ARGS = { owner: "acme-eng", repository: "api", url: "https://ci.example.com/hook" };

/** What the SDK's constructor sees: a transformation runs inside it, before the properties are made. */
function observeInsideConstructor(): {
  opts: pulumi.CustomResourceOptions;
  seen: { limit?: number; stack?: string };
} {
  const seen: { limit?: number; stack?: string } = {};
  const opts: pulumi.CustomResourceOptions = {
    transformations: [
      () => {
        seen.limit = Error.stackTraceLimit;
        seen.stack = new Error("inside").stack ?? "";
        return undefined;
      },
    ],
  };
  return { opts, seen };
}

describe("HostingResource construction", () => {
  const programLimit = Error.stackTraceLimit;
  afterEach(() => {
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    Error.stackTraceLimit = programLimit;
  });

  it("captures no frames inside the SDK's constructor and restores the program's limit", () => {
    Error.stackTraceLimit = 17;
    const { opts, seen } = observeInsideConstructor();
    new RepositoryWebhook("plain", ARGS, opts);
    expect(seen.limit).toBe(0);
    expect(seen.stack).toBe("Error: inside");
    expect(Error.stackTraceLimit).toBe(17);
  });

  it("keeps the frames when the SDK's promise-leak debugging is on", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    Error.stackTraceLimit = 12;
    const { opts, seen } = observeInsideConstructor();
    new RepositoryWebhook("debugged", ARGS, opts);
    expect(seen.limit).toBe(12);
    expect(seen.stack).toContain("resource.test.ts");
  });

  it("gives an error thrown inside the SDK's constructor the stack down to the caller, and restores the limit", () => {
    Error.stackTraceLimit = 15;
    const thrower: pulumi.ResourceTransformation = () => {
      throw new Error("refused by a transformation");
    };
    let caught: unknown;
    try {
      new RepositoryWebhook("refused", ARGS, { transformations: [thrower] });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Error);
    const stack = (caught as Error).stack ?? "";
    expect(stack.split("\n")[0]).toBe("Error: refused by a transformation");
    expect(stack).toContain("new RepositoryWebhook");
    expect(stack).toContain("resource.test.ts");
    expect(Error.stackTraceLimit).toBe(15);
  });
});
