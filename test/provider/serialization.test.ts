/**
 * What Pulumi serialises into state for each resource (`__provider`): small, free of credentials,
 * and a shim that loads the installed package by name. `setMocks` runs the real serialiser.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

const captured: Array<{ type: string; inputs: Record<string, unknown> }> = [];

beforeAll(async () => {
  process.env.HOSTING_TOKEN = "svcp_must_not_leak";
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        captured.push({ type: args.type, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    true,
  );
});

describe("serialised provider", () => {
  it("is at most 4 KB for every resource, holds no token and loads the runtime by package name", async () => {
    const hosting = await import("../../provider/index.js");
    const hook = new hosting.RepositoryWebhook("r", {
      owner: "acme-eng",
      repository: "api",
      url: "https://x.example",
      secret: "hook-secret",
    });
    const others = [
      new hosting.GlobalWebhook("g", { url: "https://y.example" }),
      new hosting.EnterpriseRunnerGroup("e", { enterprise: "acme", name: "e" }),
      new hosting.OrgRunnerGroup("o", { org: "acme-eng", name: "o" }),
      new hosting.RunnerGroupRunners("rr", { org: "acme-eng", runnerGroupId: 2, runners: [1] }),
      new hosting.OrgMembership("m", { org: "acme-eng", username: "mona" }),
    ];
    await new Promise<void>((resolve) =>
      pulumi.all([hook.urn, ...others.map((r) => r.urn)]).apply(() => resolve()),
    );

    const types = captured.map((c) => c.type).sort();
    expect(types).toEqual(
      [
        "EnterpriseRunnerGroup",
        "GlobalWebhook",
        "OrgMembership",
        "OrgRunnerGroup",
        "RepositoryWebhook",
        "RunnerGroupRunners",
      ].map((t) => `pulumi-nodejs:dynamic/hosting:${t}`),
    );
    for (const { inputs } of captured) {
      const provider = inputs.__provider;
      expect(typeof provider).toBe("string");
      const text = provider as string;
      expect(text.length).toBeLessThanOrEqual(4096);
      expect(text).toContain('require("pulumi-hosting/runtime")');
      expect(text).not.toContain("svcp_must_not_leak");
      expect(text).not.toContain("hook-secret");
      // No library code is captured: only the shim's own methods.
      expect(text).not.toMatch(/undici|zod|HostingClient/);
    }
  });
});
