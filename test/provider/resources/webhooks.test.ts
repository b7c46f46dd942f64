/**
 * Lifecycle of RepositoryWebhook and GlobalWebhook: provider methods called directly against the
 * sandbox server, as the engine would call them.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import { collectionReads } from "../../../provider/internal/collection-reads";
import { configure } from "../../../provider/internal/context";
import { PartialCreateError } from "../../../provider/internal/creates";
import {
  type GlobalWebhookInputs,
  globalWebhookProvider as globalProvider,
  type RepositoryWebhookInputs,
  repositoryWebhookProvider as repoProvider,
  SECRET_SET_OUTSIDE,
} from "../../../provider/resources/webhooks";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

async function checked(news: Record<string, unknown>): Promise<RepositoryWebhookInputs> {
  const result = await repoProvider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return repoProvider.inputsOf(result.inputs as RepositoryWebhookInputs);
}

const base = { owner: "acme-eng", repository: "api", url: "https://ci.example.com/hook" };

describe("RepositoryWebhook check", () => {
  it("applies the defaults", async () => {
    expect(await checked(base)).toEqual({
      ...base,
      contentType: "form",
      insecureSsl: false,
      active: true,
      events: ["push"],
    });
  });

  it.each([
    [{ ...base, url: "ftp://x.example" }, "url", "absolute http(s) URL"],
    [{ ...base, url: "not a url" }, "url", "absolute http(s) URL"],
    [{ ...base, contentType: "xml" }, "contentType", `"json", "form"`],
    [{ ...base, events: [] }, "events", "must not be empty"],
    [{ ...base, events: ["Push Event"] }, "events", `(events[0] is "Push Event")`],
    [{ ...base, owner: "" }, "owner", "owner"],
    [{ ...base, repository: "a/b" }, "repository", "repository"],
    [{ ...base, importId: "abc" }, "importId", "positive integer"],
    [{ ...base, insecureSsl: "yes" }, "insecureSsl", "boolean"],
    [{ owner: "acme-eng", repository: "api" }, "url", "url is required"],
  ])("refuses %j naming %s", async (news, property, reason) => {
    const result = await repoProvider.check({}, news);
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason).toContain(reason);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await repoProvider.check({}, { ...base, url: UNKNOWN, events: [UNKNOWN, "push"] });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs?.url).toBe(UNKNOWN);
    expect(result.inputs?.events).toEqual([UNKNOWN, "push"]);
    expect(result.inputs?.contentType).toBeUndefined(); // recorded as written
    expect(repoProvider.inputsOf(result.inputs as RepositoryWebhookInputs).contentType).toBe("form");
  });

  it("accepts a numeric importId as a string", async () => {
    expect(repoProvider.inputsOf({ ...base, importId: 12 } as never).importId).toBe("12");
  });
});

describe("RepositoryWebhook diff", () => {
  const olds = {
    ...base,
    contentType: "form",
    insecureSsl: false,
    active: true,
    events: ["push", "pull_request"],
    hookId: 1,
  };

  it("compares events as a set", async () => {
    const result = await repoProvider.diff(
      "acme-eng/api/1",
      olds as never,
      { ...olds, events: ["pull_request", "push", "push"] } as never,
    );
    expect(result).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces on an owner or repository change and says changes", async () => {
    const result = await repoProvider.diff(
      "acme-eng/api/1",
      olds as never,
      { ...olds, repository: "web" } as never,
    );
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual(["repository"]);
  });

  it("updates in place for the other fields", async () => {
    for (const change of [
      { url: "https://x.example" },
      { active: false },
      { secret: "new" },
      { contentType: "json" },
    ]) {
      const result = await repoProvider.diff(
        "acme-eng/api/1",
        olds as never,
        { ...olds, ...change } as never,
      );
      expect(result.changes).toBe(true);
      expect(result.replaces).toEqual([]);
    }
  });

  it("ignores importId after create", async () => {
    const result = await repoProvider.diff(
      "acme-eng/api/1",
      olds as never,
      { ...olds, importId: "9" } as never,
    );
    expect(result.changes).toBe(false);
  });

  it("reports a change when a value is still unknown", async () => {
    const result = await repoProvider.diff(
      "acme-eng/api/1",
      olds as never,
      { ...olds, url: UNKNOWN } as never,
    );
    expect(result.changes).toBe(true);
  });
});

describe("RepositoryWebhook lifecycle", () => {
  it("creates with one request, keeps the secret, and reads it back without the mask", async () => {
    const inputs = await checked({
      ...base,
      secret: "s3cret",
      events: ["push", "pull_request"],
      contentType: "json",
    });
    emulator.controls.clearLog();
    const created = await repoProvider.create(inputs);
    expect(emulator.controls.counts().total).toBe(1);
    expect(created.id).toBe(`acme-eng/api/${created.outs.hookId}`);
    expect(created.outs).toMatchObject({ ...inputs, secret: "s3cret" });
    expect(created.outs.pingUrl).toMatch(/\/hooks\/\d+\/pings$/);

    const read = await repoProvider.read(created.id, created.outs);
    expect(read.props?.secret).toBe("s3cret");
    expect(read.inputs).toMatchObject({ ...inputs, secret: "s3cret" });
    expect(JSON.stringify(read)).not.toContain("********");
    const diff = await repoProvider.diff(created.id, read.props as never, inputs);
    expect(diff.changes).toBe(false);
  });

  it("shows a change made outside Pulumi on that field after refresh", async () => {
    const inputs = await checked({ ...base, events: ["push", "pull_request"] });
    const created = await repoProvider.create(inputs);
    await api(emulator, "PATCH", `/repos/acme-eng/api/hooks/${created.outs.hookId}`, {
      active: false,
      add_events: ["issues"],
    });
    const read = await repoProvider.read(created.id, created.outs);
    expect(read.props).toMatchObject({ active: false, events: ["push", "pull_request", "issues"] });
    const diff = await repoProvider.diff(created.id, read.props as never, inputs);
    expect(diff.changes).toBe(true);
    const updated = await repoProvider.update(created.id, read.props as never, inputs);
    expect(updated.outs).toMatchObject({ active: true, events: ["push", "pull_request"] });
  });

  it("notices a secret removed or added outside Pulumi", async () => {
    const inputs = await checked({ ...base, secret: "s3cret" });
    const created = await repoProvider.create(inputs);
    const path = `/repos/acme-eng/api/hooks/${created.outs.hookId}`;
    await api(emulator, "PATCH", `${path}/config`, { url: base.url });
    const removed = await repoProvider.read(created.id, created.outs);
    expect(removed.props?.secret).toBeUndefined();
    expect((await repoProvider.diff(created.id, removed.props as never, inputs)).changes).toBe(true);

    const plain = await repoProvider.create(await checked({ ...base, url: "https://plain.example" }));
    await api(emulator, "PATCH", `/repos/acme-eng/api/hooks/${plain.outs.hookId}/config`, {
      secret: "theirs",
    });
    const added = await repoProvider.read(plain.id, plain.outs);
    expect(added.props?.secret).toBe(SECRET_SET_OUTSIDE);
    // Converging removes it: the marker is never sent as a secret.
    const fixed = await repoProvider.update(
      plain.id,
      added.props as never,
      await checked({ ...base, url: "https://plain.example" }),
    );
    expect(fixed.outs.secret).toBeUndefined();
  });

  it("changing the secret in code updates it on the server", async () => {
    const created = await repoProvider.create(await checked({ ...base, secret: "one" }));
    const next = await checked({ ...base, secret: "two" });
    expect((await repoProvider.diff(created.id, created.outs, next)).changes).toBe(true);
    const updated = await repoProvider.update(created.id, created.outs, next);
    expect(updated.outs.secret).toBe("two");
    const stored = emulator.store.state.repoHooks.find((h) => h.id === created.outs.hookId);
    expect(stored?.config.secret).toBe("two");
  });

  it("drops a webhook deleted outside Pulumi on read, and delete of a gone webhook succeeds", async () => {
    const created = await repoProvider.create(await checked(base));
    await api(emulator, "DELETE", `/repos/acme-eng/api/hooks/${created.outs.hookId}`);
    expect(await repoProvider.read(created.id, created.outs)).toEqual({});
    await expect(repoProvider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("deletes the webhook", async () => {
    const created = await repoProvider.create(await checked(base));
    await repoProvider.delete(created.id, created.outs);
    expect(emulator.store.state.repoHooks).toEqual([]);
  });

  it("reads by id alone (static get)", async () => {
    const created = await repoProvider.create(await checked({ ...base, secret: "x" }));
    const read = await repoProvider.read(created.id);
    expect(read.props).toMatchObject({
      owner: "acme-eng",
      repository: "api",
      url: base.url,
      secret: SECRET_SET_OUTSIDE,
    });
  });

  it("adopts an existing webhook with importId and converges it", async () => {
    const existing = await api(emulator, "POST", "/repos/acme-eng/api/hooks", {
      config: { url: base.url, content_type: "json" },
      events: ["issues"],
    });
    const id = (existing.body as { id: number }).id;
    const inputs = await checked({ ...base, importId: String(id), events: ["push"] });
    const created = await repoProvider.create(inputs);
    expect(created.outs.hookId).toBe(id);
    expect(created.outs).toMatchObject({ contentType: "form", events: ["push"] });
    expect(emulator.store.state.repoHooks).toHaveLength(1);
  });

  it("adopting an identical webhook writes nothing", async () => {
    const existing = await api(emulator, "POST", "/repos/acme-eng/api/hooks", { config: { url: base.url } });
    emulator.controls.clearLog();
    await repoProvider.create(
      await checked({ ...base, importId: String((existing.body as { id: number }).id) }),
    );
    // One read by check (what adopting changes: nothing, so it says nothing), one by create.
    expect(emulator.controls.counts().byMethod).toEqual({ GET: 2 });
  });

  it("names importId when the webhook to adopt does not exist, at preview and at create", async () => {
    const preview = await repoProvider.check({}, { ...base, importId: "999" });
    expect(preview.failures).toEqual([
      {
        property: "importId",
        reason: "importId 999: there is no such RepositoryWebhook, or the token cannot see it",
      },
    ]);
    await expect(
      repoProvider.create(repoProvider.inputsOf({ ...base, importId: "999" } as never)),
    ).rejects.toThrow(/importId 999/);
  });

  it("shows at preview what adopting a webhook changes, field by field, secrets by whether they are set", async () => {
    const existing = await api(emulator, "POST", "/repos/acme-eng/api/hooks", {
      config: { url: base.url, secret: "kept-by-hand", insecure_ssl: "1" },
      active: false,
    });
    const importId = String((existing.body as { id: number }).id);
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const preview = await repoProvider.check({}, { ...base, importId });
      expect(preview.failures ?? []).toEqual([]);
      const lines = told.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual([
        `pulumi-hosting: RepositoryWebhook acme-eng/api/${importId} (importId ${importId}): adopting it will change secret: removed, insecureSsl: true => false, active: false => true\n`,
      ]);
      expect(lines.join("")).not.toContain("kept-by-hand");
      // A resource already created (recorded inputs) reads nothing at preview.
      told.mockClear();
      emulator.controls.clearLog();
      await repoProvider.check({ ...base, importId }, { ...base, importId });
      expect(told).not.toHaveBeenCalled();
      expect(emulator.controls.log).toEqual([]);
    } finally {
      told.mockRestore();
    }
  });

  it("tells the user which importId to set when the URL is already hooked", async () => {
    const made = await api(emulator, "POST", "/repos/acme-eng/api/hooks", { config: { url: base.url } });
    const id = (made.body as { id: number }).id;
    await expect(repoProvider.create(await checked(base))).rejects.toThrow(
      new RegExp(`already exists there \\(id ${id}\\).*Set importId to ${id} `),
    );
    expect(emulator.store.state.repoHooks).toHaveLength(1);
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
    ["answered 502 before the write", { status: 502, when: "before" }],
  ])("never leaves a duplicate when the create is %s", async (_label, fault) => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/repos/acme-eng/api/hooks",
      count: 1,
      ...fault,
    });
    const created = await repoProvider.create(await checked({ ...base, secret: "s" }));
    expect(emulator.store.state.repoHooks).toHaveLength(1);
    expect(emulator.store.state.repoHooks[0]?.id).toBe(created.outs.hookId);
    expect(emulator.store.state.repoHooks[0]?.config.secret).toBe("s");
  });

  it("gives up after repeated ambiguous failures without creating anything twice", async () => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/repos/acme-eng/api/hooks",
      status: 503,
      count: 10,
    });
    await expect(repoProvider.create(await checked(base))).rejects.toThrow(/503/);
    expect(emulator.store.state.repoHooks).toHaveLength(0);
    expect(requestCounts(emulator)["POST /repos/{owner}/{repo}/hooks"]).toBe(3);
  });

  it("keeps a create whose answer and look-ups were lost as pending, and the next up adopts that hook", async () => {
    // The POST acts but its answer is dropped, and every look-up meets a 502: the provider cannot
    // tell whether the hook exists. Waits take no time here.
    const config: Record<string, string> = {
      "hosting:baseUrl": emulator.origin,
      "hosting:token": "svcp_siteadmin",
    };
    configure({ get: (key) => config[key] }, { sleep: async () => {} });
    onTestFinished(() => configure({ get: (key) => config[key] }, {}));
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/repos/acme-eng/api/hooks",
      count: 1,
      drop: true,
      when: "after",
    });
    await control(emulator, "POST", "/faults", {
      method: "GET",
      path: "/repos/acme-eng/api/hooks",
      count: 1000,
      status: 502,
    });
    const inputs = await checked({ ...base, secret: "s" });
    const failure = await repoProvider.create(inputs).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PartialCreateError);
    const pending = failure as PartialCreateError;
    expect(pending.id).toMatch(/^pending-create:\d+$/);
    expect(pending.message).toMatch(/whether the RepositoryWebhook was made cannot be told now/);
    expect(pending.message).not.toContain("https://ci.example.com/hook");
    expect(emulator.store.state.repoHooks).toHaveLength(1);

    // The next up, with the server well again: a replacement that deletes the record first.
    await control(emulator, "DELETE", "/faults");
    collectionReads.clear();
    const olds = pending.properties as Parameters<typeof repoProvider.delete>[1];
    expect(await repoProvider.diff(pending.id, olds, inputs)).toMatchObject({ deleteBeforeReplace: true });
    await repoProvider.delete(pending.id, olds);
    const adopted = await repoProvider.create(inputs);
    expect(emulator.store.state.repoHooks).toHaveLength(1);
    expect(adopted.outs.hookId).toBe(emulator.store.state.repoHooks[0]?.id);
    expect(requestCounts(emulator)["POST /repos/{owner}/{repo}/hooks"]).toBe(1);
  });

  it("waits out a secondary rate limit and then succeeds", async () => {
    await control(emulator, "PUT", "/rate-limit", { method: "POST", retryAfter: 0, count: 2 });
    const created = await repoProvider.create(await checked(base));
    expect(created.outs.hookId).toBeGreaterThan(0);
    expect(requestCounts(emulator)["POST /repos/{owner}/{repo}/hooks"]).toBe(3);
  });

  it("explains a missing scope with what the endpoint accepts", async () => {
    useToken(emulator, "svcp_noscopes");
    await expect(repoProvider.create(await checked(base))).rejects.toThrow(/repository_hooks=write/);
  });

  it("never puts the token in an error", async () => {
    useToken(emulator, "svcp_noscopes");
    const error = await repoProvider.create(await checked(base)).catch((e: unknown) => e);
    expect(JSON.stringify(error)).not.toContain("svcp_noscopes");
    expect(String(error)).not.toContain("svcp_noscopes");
  });
});

describe("GlobalWebhook", () => {
  async function globalInputs(news: Record<string, unknown>): Promise<GlobalWebhookInputs> {
    const result = await globalProvider.check({}, news);
    expect(result.failures ?? []).toEqual([]);
    return globalProvider.inputsOf(result.inputs as GlobalWebhookInputs);
  }

  it("defaults events to user and organization and refuses others", async () => {
    expect((await globalInputs({ url: "https://a.example" })).events).toEqual(["user", "organization"]);
    const bad = await globalProvider.check({}, { url: "https://a.example", events: ["push"] });
    // The top-level argument, so the engine prints the value (a nested path prints {<nil>}).
    expect(bad.failures?.[0]).toMatchObject({ property: "events" });
    expect(bad.failures?.[0]?.reason).toContain('(events[0] is "push")');
    expect(bad.failures?.[0]?.reason).toContain(`"organization", "user"`);
  });

  it("runs the whole lifecycle", async () => {
    const inputs = await globalInputs({
      url: "https://audit.example",
      secret: "g",
      events: ["repository", "user"],
    });
    const created = await globalProvider.create(inputs);
    expect(created.id).toBe(String(created.outs.hookId));
    await api(emulator, "PATCH", `/admin/hooks/${created.id}`, {
      config: { url: "https://audit.example" },
      events: ["user", "repository"],
      active: false,
    });
    const read = await globalProvider.read(created.id, created.outs);
    expect(read.props).toMatchObject({ active: false });
    expect(read.props?.secret).toBeUndefined();
    const diff = await globalProvider.diff(created.id, read.props as never, inputs);
    expect(diff.changes).toBe(true);
    const updated = await globalProvider.update(created.id, read.props as never, inputs);
    expect(updated.outs).toMatchObject({ active: true, secret: "g", events: ["repository", "user"] });
    await globalProvider.delete(created.id, updated.outs);
    expect(await globalProvider.read(created.id, updated.outs)).toEqual({});
  });

  it("refuses a second global webhook for a URL, naming the importId to set", async () => {
    const made = await api(emulator, "POST", "/admin/hooks", {
      name: "web",
      config: { url: "https://dup.example" },
    });
    const id = (made.body as { id: number }).id;
    await expect(globalProvider.create(await globalInputs({ url: "https://dup.example" }))).rejects.toThrow(
      new RegExp(`already exists there \\(id ${id}\\).*Set importId to ${id} `),
    );
    expect(emulator.store.state.globalHooks).toHaveLength(1);
  });

  it.each([
    ["svcp_owner", /to the token of olivia \(not a site administrator\)\. /],
    ["svc_pat_admin", /site administrator/],
    ["svcs_install", /app or installation token/],
  ])("fails clearly with %s instead of dropping or creating", async (token, who) => {
    const created = await globalProvider.create(await globalInputs({ url: "https://a.example" }));
    useToken(emulator, token);
    await expect(globalProvider.create(await globalInputs({ url: "https://b.example" }))).rejects.toThrow(
      who,
    );
    await expect(globalProvider.read(created.id, created.outs)).rejects.toThrow(
      /classic personal access token of a site administrator/,
    );
    await expect(globalProvider.delete(created.id, created.outs)).rejects.toThrow(/site administrator/);
    expect(emulator.store.state.globalHooks).toHaveLength(1);
  });
});

describe("ids that name another path", () => {
  it("are refused before any request", async () => {
    emulator.controls.clearLog();
    await expect(repoProvider.read("acme-eng/api/..%2F..%2Fx", {})).rejects.toThrow(
      /RepositoryWebhook id part hookId must be a positive integer; got "\.\.\/\.\.\/x"/,
    );
    await expect(globalProvider.delete("..%2Fusers", {} as never)).rejects.toThrow(
      /GlobalWebhook id part hookId must be a positive integer/,
    );
    expect(emulator.controls.counts().total).toBe(0);
  });
});

describe("refresh of many hooks of one repository", () => {
  it("shares the repository's list: 1 single GET, then one list page per 100 hooks", async () => {
    const made = [];
    for (let i = 0; i < 120; i++) {
      made.push(await repoProvider.create(await checked({ ...base, url: `https://ci.example.com/h/${i}` })));
    }
    collectionReads.clear(); // a refresh is a new provider process
    emulator.controls.clearLog();
    const read = await Promise.all(made.map((m) => repoProvider.read(m.id, m.outs)));
    expect(read.map((r) => r.props?.url)).toEqual(made.map((m) => m.outs.url));
    expect(emulator.controls.counts().byRoute).toEqual({
      "GET /repos/{owner}/{repo}/hooks/{hook_id}": 1,
      "GET /repos/{owner}/{repo}/hooks": 2,
    });
    // A hook deleted outside Pulumi is not in the list: its single GET says it is gone.
    await api(emulator, "DELETE", `/repos/acme-eng/api/hooks/${made[0]?.outs.hookId}`);
    collectionReads.clear();
    expect(await repoProvider.read(made[1]?.id ?? "", made[1]?.outs)).toMatchObject({ id: made[1]?.id });
    expect(await repoProvider.read(made[0]?.id ?? "", made[0]?.outs)).toEqual({});
  });
});
