/**
 * The base resource class constructs through the SDK with no stack frames captured for the SDK's
 * promises, restores the program's limit afterwards, keeps the frames when the SDK's promise-leak
 * debugging is on, and gives an error thrown inside the SDK's constructor the program's stack. The
 * source position the SDK sends for a resource is the program's line, not this library's.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { IssueField, RepositoryWebhook } from "../../../provider/index";

/** The source position of each registration, as the SDK sends it to the engine. */
const positions = new Map<string, { uri: string; line: number }>();

interface PositionRequest {
  getName(): string;
  getSourceposition(): { getUri(): string; getLine(): number } | undefined;
}

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
  const monitor = pulumi.runtime.getMonitor() as unknown as {
    registerResource(req: PositionRequest, callback: unknown): unknown;
  };
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    const position = req.getSourceposition();
    if (position) positions.set(req.getName(), { uri: position.getUri(), line: position.getLine() });
    return register(req, callback);
  };
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

  it("sends the program's line as the resource's source position", async () => {
    const callsites = (pulumi.Resource as unknown as { callsites: unknown }).callsites;
    const { hook, line } = declareHook("placed");
    await new Promise<void>((resolve) => hook.urn.apply(() => resolve()));
    expect(positions.get("placed")?.uri).toMatch(/resource\.test\.ts$/);
    expect(positions.get("placed")?.line).toBe(line);
    // The SDK's own method is back once the constructor returned.
    expect((pulumi.Resource as unknown as { callsites: unknown }).callsites).toBe(callsites);
  });
});

/** Declares a webhook from a named function (the SDK reads positions from named frames) and says on which line. */
function declareHook(name: string): { hook: RepositoryWebhook; line: number } {
  const here = Number(/:(\d+):\d+\)$/.exec(new Error().stack?.split("\n")[1] ?? "")?.[1]);
  const hook = new RepositoryWebhook(name, ARGS);
  return { hook, line: here + 1 };
}

describe("resourceClass", () => {
  /** The options the SDK's constructor is given, seen by a transformation. */
  const optionsSeen = (): { record: pulumi.ResourceTransformation; seen: pulumi.CustomResourceOptions[] } => {
    const seen: pulumi.CustomResourceOptions[] = [];
    return {
      seen,
      record: (a) => {
        seen.push(a.opts);
        return undefined;
      },
    };
  };

  it("gives every resource of the kind its default options unless the program sets them", () => {
    const { record, seen } = optionsSeen();
    const args = { org: "acme-eng", name: "Effort", dataType: "number" } as const;
    new IssueField("defaulted", args, { transformations: [record] });
    new IssueField("overridden", args, { transformations: [record], deleteBeforeReplace: false });
    new RepositoryWebhook("no-defaults", ARGS, { transformations: [record] });
    expect(seen.map((o) => o.deleteBeforeReplace)).toEqual([true, false, undefined]);
  });

  it("makes get answer an instance of the kind's class, with the id asked for", async () => {
    const found = RepositoryWebhook.get("found", "acme-eng/api/7");
    expect(found).toBeInstanceOf(RepositoryWebhook);
    expect(await new Promise((resolve) => found.id.apply(resolve))).toBe("acme-eng/api/7");
  });
});
