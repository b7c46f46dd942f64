/**
 * The runner: each error once, and a stack stopped at its time limit or at an interrupt, through
 * stacks that behave as the CLI does under SIGINT (checked with the real CLI in
 * test/e2e/fleet.test.ts).
 */
import {
  type EngineEvent,
  type PreviewOptions,
  type RefreshOptions,
  Stack,
  type UpOptions,
  type Workspace,
} from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import type { Project } from "../../fleet/discover";
import {
  errorText,
  type OpenStack,
  type RunOptions,
  runFleet,
  type StackOperations,
  withoutReadBack,
} from "../../fleet/runner";

/** The CLI's text and events of an up where two resources failed with one message (CLI v3.259.0). */
const FAILED_UP = {
  stderr:
    "Command failed with exit code 1: pulumi up --yes --skip-preview --exec-kind auto.local --stack dev --non-interactive\n" +
    "Updating (dev):\n\n" +
    " +  pulumi-nodejs:dynamic:Resource mona creating (0s) error: 401 Bad credentials\n" +
    " +  pulumi-nodejs:dynamic:Resource mona **creating failed** error: 401 Bad credentials\n" +
    " +  pulumi-nodejs:dynamic:Resource hubot creating (0s) error: 401 Bad credentials\n" +
    " +  pulumi-nodejs:dynamic:Resource hubot **creating failed** error: 401 Bad credentials\n" +
    "    pulumi:pulumi:Stack acme-dev running error: update failed\n" +
    "Diagnostics:\n" +
    "  pulumi-nodejs:dynamic:Resource (mona):\n" +
    "    error: 401 Bad credentials\n" +
    "    second line of the cause\n\n" +
    "  pulumi:pulumi:Stack (acme-dev):\n" +
    "    warning: Could not find a package.json\n" +
    "    error: update failed\n\n" +
    "  pulumi-nodejs:dynamic:Resource (hubot):\n" +
    "    error: 401 Bad credentials\n" +
    "    second line of the cause\n\n" +
    "Resources:\n    1 unchanged\n    2 errored\n",
  diagnostics: [
    { name: "mona", message: "401 Bad credentials\nsecond line of the cause" },
    { name: "hubot", message: "401 Bad credentials\nsecond line of the cause" },
    { message: "update failed" },
  ],
};

const commandError = (stderr: string, stdout = "") =>
  Object.assign(new Error("command failed"), { commandResult: { stderr, stdout } });

describe("errorText", () => {
  it("says each error once, a resource's named by its resource, without the engine's summary", () => {
    const text = errorText(commandError(FAILED_UP.stderr), FAILED_UP.diagnostics);
    expect(text).toBe(
      "mona: 401 Bad credentials\n  second line of the cause\nhubot: 401 Bad credentials\n  second line of the cause",
    );
    expect(text.match(/401 Bad credentials/g)).toHaveLength(2);
  });

  it("keeps the CLI's own error lines and what is indented under them, not the progress", () => {
    const e = commandError(
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n  postgres://****:****@127.0.0.1:55432/pulumi/.pulumi/locks/x.json: created by root@vm (pid 1)\n\nother noise\n",
      "Previewing update (ci):\n  pulumi:pulumi:Stack acme-eng-ci running\n",
    );
    expect(errorText(e, [{ name: "acme-eng-member-mona", message: "401 Bad credentials" }])).toBe(
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
        "  postgres://****:****@127.0.0.1:55432/pulumi/.pulumi/locks/x.json: created by root@vm (pid 1)\n" +
        "acme-eng-member-mona: 401 Bad credentials",
    );
    expect(errorText(new Error("spawn pulumi ENOENT"))).toBe("spawn pulumi ENOENT");
    // The summary alone is what there is to say.
    expect(errorText(commandError("error: update failed\n"), [{ message: "update failed" }])).toBe(
      "error: update failed",
    );
    // Stopped: the caller says why; the CLI's "update canceled" adds nothing.
    expect(
      errorText(
        commandError("    error: update canceled\n"),
        [{ name: "acme-dev", message: "update canceled" }],
        {
          stopped: true,
        },
      ),
    ).toBe("");
  });
});

const projects: Project[] = ["acme-eng", "acme-ops", "site-admin"].map((p) => ({
  project: p,
  dir: `/f/${p}`,
  rel: p,
}));

/**
 * How a fake stack's operation behaves, as the CLI does: `settles` ends at once; `cancels` (a
 * program that never settles) fails with "update canceled" at the first SIGINT; `stuck` (a step
 * that never ends) only at the second; `deaf` never ends.
 */
type Behaviour = "settles" | "cancels" | "stuck" | "deaf";

interface Fake {
  open: OpenStack;
  /** SIGINTs each project's operation received. */
  interrupts: Map<string, number>;
  started: string[];
}

function fakeFleet(behaviours: Record<string, Behaviour>, events: Record<string, EngineEvent[]> = {}): Fake {
  const interrupts = new Map<string, number>();
  const started: string[] = [];
  const operation =
    (project: string) =>
    (opts?: UpOptions | PreviewOptions): Promise<never> => {
      started.push(project);
      for (const event of events[project] ?? []) opts?.onEvent?.(event);
      const behaviour = behaviours[project] ?? "settles";
      if (behaviour === "settles") return Promise.resolve(undefined as never);
      return new Promise((_resolve, reject) => {
        opts?.signal?.addEventListener("abort", () => {
          const n = (interrupts.get(project) ?? 0) + 1;
          interrupts.set(project, n);
          const canceled = commandError(`    error: update canceled\n`);
          if (behaviour === "cancels" && n === 1) reject(canceled);
          if (behaviour === "stuck" && n === 2) reject(commandError("error: update failed\n"));
        });
      });
    };
  const open: OpenStack = async (project) => {
    const run = operation(project.project);
    return { up: run, preview: run, destroy: run } as unknown as StackOperations;
  };
  return { open, interrupts, started };
}

const options = (over: Partial<RunOptions> = {}): RunOptions => ({
  operation: "up",
  stack: "ci",
  concurrency: 3,
  timeoutMs: 60_000,
  progress: () => {},
  ...over,
});

describe("runFleet: time limits", () => {
  it("cancels a stack past --timeout with one interrupt and reports it as an error naming the limit", async () => {
    const fake = fakeFleet({ "acme-ops": "cancels" });
    const started = Date.now();
    const results = await runFleet(projects, options({ timeoutMs: 200 }), fake.open);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(results.map((r) => [r.project, r.status])).toEqual([
      ["acme-eng", "ok"],
      ["acme-ops", "error"],
      ["site-admin", "ok"],
    ]);
    expect(results[1]?.error).toBe("timed out after 200ms (--timeout 200ms): the operation was cancelled");
    expect(fake.interrupts.get("acme-ops")).toBe(1);
  });

  it("interrupts a second time (the CLI's terminate) a stack whose cancel does not end in the grace period", async () => {
    const fake = fakeFleet({ "acme-eng": "stuck" });
    const results = await runFleet(projects, options({ timeoutMs: 100, graceMs: 100 }), fake.open);
    expect(fake.interrupts.get("acme-eng")).toBe(2);
    expect(results[0]?.status).toBe("error");
    expect(results[0]?.error).toMatch(
      /^timed out after 100ms \(--timeout 100ms\): the operation was cancelled; steps still running were left pending: the next run names them, `pulumi refresh` settles them$/,
    );
  });

  it("gives up a stack that ignores both interrupts, saying how to clear its lock", async () => {
    const fake = fakeFleet({ "site-admin": "deaf" });
    const results = await runFleet(
      projects,
      options({ timeoutMs: 100, graceMs: 100, abandonMs: 100 }),
      fake.open,
    );
    expect(fake.interrupts.get("site-admin")).toBe(2);
    expect(results[2]?.error).toBe(
      "timed out after 100ms (--timeout 100ms): the operation was cancelled; the CLI did not stop after two interrupts, so the stack may still be locked: `pulumi cancel --yes --stack ci` in site-admin clears the lock",
    );
  });

  it("stops waiting for a stack that cannot even be selected", async () => {
    const open: OpenStack = () => new Promise(() => {});
    const results = await runFleet(projects.slice(0, 1), options({ timeoutMs: 100 }), open);
    expect(results[0]?.error).toBe(
      "timed out after 100ms (--timeout 100ms): the operation was cancelled while the stack was being selected",
    );
  });
});

describe("runFleet: interrupts", () => {
  it("cancels the running stacks, starts no other, and names every stack in the result", async () => {
    const fake = fakeFleet({ "acme-eng": "cancels" });
    const interrupt = new AbortController();
    const results = runFleet(
      projects,
      options({
        concurrency: 1,
        interrupt: interrupt.signal,
        progress: (line) => {
          if (line.includes("acme-eng/ci: up started")) setTimeout(() => interrupt.abort("SIGINT"), 20);
        },
      }),
      fake.open,
    );
    expect((await results).map((r) => [r.project, r.status, r.error])).toEqual([
      ["acme-eng", "error", "interrupted by SIGINT: the operation was cancelled"],
      ["acme-ops", "error", "interrupted by SIGINT before it started: not run"],
      ["site-admin", "error", "interrupted by SIGINT before it started: not run"],
    ]);
    expect(fake.started).toEqual(["acme-eng"]);
    expect(fake.interrupts.get("acme-eng")).toBe(1);
  });

  it("at a second signal interrupts again at once, not after the grace period", async () => {
    const fake = fakeFleet({ "acme-eng": "stuck" });
    const interrupt = new AbortController();
    const force = new AbortController();
    const started = Date.now();
    const results = runFleet(
      projects.slice(0, 1),
      options({
        interrupt: interrupt.signal,
        force: force.signal,
        progress: (line) => {
          if (!line.includes("started")) return;
          setTimeout(() => interrupt.abort("SIGTERM"), 20);
          setTimeout(() => force.abort("SIGTERM"), 60);
        },
      }),
      fake.open,
    );
    expect((await results)[0]?.error).toMatch(
      /^interrupted by SIGTERM: the operation was cancelled; steps still running were left pending/,
    );
    expect(fake.interrupts.get("acme-eng")).toBe(2);
    // The default grace period is a minute.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("sends an interrupt that came before the CLI listened as soon as it listens", async () => {
    const interrupt = new AbortController();
    let heard = 0;
    const late = (opts?: UpOptions): Promise<never> =>
      new Promise((_resolve, reject) => {
        // The Automation API starts the CLI, and listens to the signal, after some set-up.
        interrupt.abort("SIGINT");
        setTimeout(() => {
          opts?.signal?.addEventListener("abort", () => {
            heard++;
            reject(commandError("error: update canceled\n"));
          });
        }, 20);
      });
    const open: OpenStack = async () =>
      ({ up: late, preview: late, destroy: late }) as unknown as StackOperations;
    const results = await runFleet(projects.slice(0, 1), options({ interrupt: interrupt.signal }), open);
    expect(heard).toBe(1);
    expect(results[0]?.error).toBe("interrupted by SIGINT: the operation was cancelled");
  });
});

describe("runFleet: drift and errors", () => {
  const step = (name: string): EngineEvent => ({
    sequence: 1,
    timestamp: 1,
    resourcePreEvent: {
      metadata: {
        op: "update",
        urn: `urn:pulumi:ci::acme-eng::pulumi-nodejs:dynamic/hosting:OrgMembership::${name}`,
        type: "pulumi-nodejs:dynamic/hosting:OrgMembership",
        provider: "",
        old: {
          type: "t",
          urn: "u",
          custom: true,
          delete: false,
          id: "i",
          parent: "",
          protect: false,
          inputs: { role: "admin" },
          outputs: {},
          provider: "",
          initErrors: [],
        },
        new: {
          type: "t",
          urn: "u",
          custom: true,
          delete: false,
          id: "i",
          parent: "",
          protect: false,
          inputs: { role: "member" },
          outputs: {},
          provider: "",
          initErrors: [],
        },
      },
    },
  });

  it("reads expect-no-changes' failure as drift, with each field's values", async () => {
    const failing: OpenStack = async () => {
      const preview = (opts?: PreviewOptions) => {
        opts?.onEvent?.(step("mona"));
        opts?.onEvent?.({
          sequence: 2,
          timestamp: 1,
          diagnosticEvent: { message: "no changes were expected\n", color: "never", severity: "error" },
        });
        return Promise.reject(commandError("error: no changes were expected but changes were proposed\n"));
      };
      return { preview } as unknown as StackOperations;
    };
    const [result] = await runFleet(projects.slice(0, 1), options({ operation: "drift" }), failing);
    expect(result?.status).toBe("drift");
    expect(result?.changes[0]?.diffs).toEqual([{ field: "role", old: "admin", new: "member" }]);
  });

  it("with refreshOnly, runs the refresh preview alone and reads its outputs events as drift", async () => {
    const called: string[] = [];
    const failing: OpenStack = async () => {
      const previewRefresh = (opts?: RefreshOptions) => {
        called.push(`previewRefresh expectNoChanges=${opts?.expectNoChanges}`);
        const { resourcePreEvent: found } = step("mona");
        if (found) opts?.onEvent?.({ sequence: 1, timestamp: 1, resOutputsEvent: found });
        return Promise.reject(
          commandError("error: no changes were expected for refresh but changes were proposed\n"),
        );
      };
      const preview = () => {
        called.push("preview");
        return Promise.resolve(undefined as never);
      };
      return { previewRefresh, preview } as unknown as StackOperations;
    };
    const [result] = await runFleet(
      projects.slice(0, 1),
      options({ operation: "drift", refreshOnly: true }),
      failing,
    );
    expect(called).toEqual(["previewRefresh expectNoChanges=true"]);
    expect(result?.status).toBe("drift");
    expect(result?.changes[0]?.diffs).toEqual([{ field: "role", old: "admin", new: "member" }]);
  });

  it("reports a stack whose resources failed with each error once", async () => {
    const failing: OpenStack = async () => {
      const up = (opts?: UpOptions) => {
        const diagnostic = (message: string, urn?: string): EngineEvent => ({
          sequence: 1,
          timestamp: 1,
          diagnosticEvent: { message, color: "never", severity: "error", ...(urn ? { urn } : {}) },
        });
        for (const name of ["mona", "hubot"]) {
          opts?.onEvent?.(
            diagnostic(
              "401 Bad credentials\nsecond line of the cause\n",
              `urn:pulumi:dev::acme::pulumi-nodejs:dynamic:Resource::${name}`,
            ),
          );
        }
        opts?.onEvent?.(diagnostic("update failed\n"));
        return Promise.reject(commandError(FAILED_UP.stderr));
      };
      return { up } as unknown as StackOperations;
    };
    const [result] = await runFleet(projects.slice(0, 1), options(), failing);
    expect(result?.status).toBe("error");
    expect(result?.error).toBe(
      "mona: 401 Bad credentials\n  second line of the cause\nhubot: 401 Bad credentials\n  second line of the cause",
    );
  });
});

describe("withoutReadBack", () => {
  /**
   * A workspace whose CLI records each command and succeeds; reading the stack's outputs (two CLI
   * commands in a LocalWorkspace) is recorded as `stack output`.
   */
  function recordingWorkspace(commands: string[]): Workspace {
    const workspace = {
      workDir: "/nowhere",
      envVars: {},
      selectStack: async () => {},
      serializeArgsForOp: async () => [],
      postCommandCallback: async () => {},
      stackOutputs: async () => {
        commands.push("stack output");
        return {};
      },
      pulumiCommand: {
        run: async (args: string[]) => {
          commands.push(args.slice(0, 2).join(" "));
          return { stdout: args[0] === "stack" ? "[]" : "", stderr: "", code: 0 };
        },
      },
    };
    return workspace as unknown as Workspace;
  }

  it("runs up and destroy alone: no stack output or history after them", async () => {
    const commands: string[] = [];
    const stack = withoutReadBack(await Stack.select("ci", recordingWorkspace(commands)));
    await stack.up();
    await stack.destroy();
    expect(commands).toEqual(["up --yes", "destroy --yes"]);
  });

  it("turns off what the Automation API's stack does: up reads outputs and history back", async () => {
    const commands: string[] = [];
    const stack = await Stack.select("ci", recordingWorkspace(commands));
    await stack.up();
    expect(commands).toEqual(["up --yes", "stack output", "stack history"]);
  });
});
