/**
 * Lifecycle of OrgWebhook: provider methods called directly against the sandbox server, as the
 * engine would call them. The secret never loops (kept from state, never read back as the mask,
 * never a perpetual diff), events are a set, adoption by importId, outside changes, and the 404
 * the organisation's hooks give anyone but its owners, never taken for a deleted hook.
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../../emulator/index";
import { UNKNOWN } from "../../../../provider/internal/check";
import {
  type OrgWebhookInputs,
  orgWebhookProvider as provider,
  SECRET_SET_OUTSIDE,
} from "../../../../provider/resources/webhooks";
import { api, useSandbox, useToken } from "../helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const HOOKS = "/orgs/acme-eng/hooks";
const base = { org: "acme-eng", url: "https://audit.example.com/org" };

async function checked(news: Record<string, unknown>): Promise<OrgWebhookInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as OrgWebhookInputs);
}

const stored = () => emulator.store.state.orgHooks;

describe("OrgWebhook check and diff", () => {
  it("applies the defaults: form, secure, active, push", async () => {
    expect(await checked(base)).toEqual({
      ...base,
      contentType: "form",
      insecureSsl: false,
      active: true,
      events: ["push"],
    });
  });

  it.each([
    [{ ...base, org: "" }, "org", "org must not be empty"],
    [{ ...base, org: "acme/eng" }, "org", 'org may hold only letters, digits, ".", "-" and "_"'],
    [{ ...base, url: "ftp://x.example" }, "url", "absolute http(s) URL"],
    [{ ...base, events: [] }, "events", "events must not be empty"],
    [{ ...base, events: ["Team Event"] }, "events", '(events[0] is "Team Event")'],
    [{ ...base, secret: "" }, "secret", "secret must not be empty; omit it instead"],
    [{ ...base, importId: "x" }, "importId", "positive integer"],
    [{ url: base.url }, "org", "org is required"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, news);
    // A secret field is named in the reason, not as the property whose value the engine prints.
    const named = property === "secret" ? "" : property;
    const failure = result.failures?.find((f) => f.property === named && f.reason.startsWith(property));
    expect(failure?.reason).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await provider.check({}, { ...base, url: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs?.url).toBe(UNKNOWN);
  });

  const olds = {
    ...base,
    contentType: "form",
    insecureSsl: false,
    active: true,
    events: ["push", "team"],
    hookId: 5,
  };

  it("compares events as a set and the organisation case-insensitively", async () => {
    const same = { ...olds, org: "Acme-Eng", events: ["team", "push", "team"] };
    expect(await provider.diff("acme-eng/5", olds as never, same as never)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on another organisation, updates in place otherwise", async () => {
    expect(
      (await provider.diff("acme-eng/5", olds as never, { ...olds, org: "acme-ops" } as never)).replaces,
    ).toEqual(["org"]);
    for (const change of [{ url: "https://x.example" }, { secret: "new" }, { events: ["organization"] }]) {
      const result = await provider.diff("acme-eng/5", olds as never, { ...olds, ...change } as never);
      expect(result).toMatchObject({ changes: true, replaces: [] });
    }
  });
});

describe("OrgWebhook lifecycle", () => {
  it("creates with one request, keeps the secret out of every answer, and reads back with no change", async () => {
    const inputs = await checked({
      ...base,
      secret: "s3cret",
      events: ["organization", "team"],
      contentType: "json",
    });
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(emulator.controls.log.map((r) => `${r.method} ${r.route}`)).toEqual(["POST /orgs/{org}/hooks"]);
    expect(created.id).toBe(`acme-eng/${created.outs.hookId}`);
    expect(created.outs).toMatchObject({ ...inputs, secret: "s3cret" });
    const url = `${emulator.url}${HOOKS}/${created.outs.hookId}`;
    expect(created.outs.pingUrl).toBe(`${url}/pings`);
    expect(created.outs.deliveriesUrl).toBe(`${url}/deliveries`);
    expect(stored()[0]?.config.secret).toBe("s3cret");

    const read = await provider.read(created.id, created.outs);
    expect(read.props?.secret).toBe("s3cret");
    expect(JSON.stringify(read)).not.toContain("********");
    expect(read.inputs).toEqual({ ...inputs, secret: "s3cret" });
    expect((await provider.diff(created.id, read.props as never, inputs)).changes).toBe(false);
  });

  it("never shows a change of an unchanged secret, however often it is read", async () => {
    const inputs = await checked({ ...base, secret: "s3cret" });
    const created = await provider.create(inputs);
    let props = created.outs;
    for (let i = 0; i < 3; i++) {
      props = (await provider.read(created.id, props)).props as typeof props;
      expect(provider.changedFields(props, inputs)).toEqual([]);
    }
  });

  it("names the fields changed outside Pulumi, and update sets them back, secret included", async () => {
    const inputs = await checked({ ...base, secret: "s3cret", events: ["push", "team"] });
    const created = await provider.create(inputs);
    // In the web UI: deactivated, another event, and the config saved without the secret.
    await api(emulator, "PATCH", `${HOOKS}/${created.outs.hookId}`, {
      active: false,
      events: ["push", "team", "membership"],
      config: { url: base.url },
    });
    const read = await provider.read(created.id, created.outs);
    expect(read.props).toMatchObject({ active: false, events: ["push", "team", "membership"] });
    expect(read.props?.secret).toBeUndefined();
    expect(provider.changedFields(read.props as never, inputs)).toEqual(["secret", "active", "events"]);
    const updated = await provider.update(created.id, read.props as never, inputs);
    expect(updated.outs).toMatchObject({ active: true, events: ["push", "team"], secret: "s3cret" });
    expect(stored()[0]?.config.secret).toBe("s3cret");
  });

  it("notices a secret set outside Pulumi, and converging removes it without sending the marker", async () => {
    const inputs = await checked(base);
    const created = await provider.create(inputs);
    await api(emulator, "PATCH", `${HOOKS}/${created.outs.hookId}/config`, { secret: "theirs" });
    const read = await provider.read(created.id, created.outs);
    expect(read.props?.secret).toBe(SECRET_SET_OUTSIDE);
    expect(provider.changedFields(read.props as never, inputs)).toEqual(["secret"]);
    const fixed = await provider.update(created.id, read.props as never, inputs);
    expect(fixed.outs.secret).toBeUndefined();
    expect(stored()[0]?.config.secret).toBeUndefined();
  });

  it("adopts a hook with importId, writing only where it differs, and shows at preview what changes", async () => {
    const existing = await api(emulator, "POST", HOOKS, {
      name: "web",
      config: { url: base.url, content_type: "json" },
      events: ["team"],
    });
    const id = (existing.body as { id: number }).id;
    const news = { ...base, importId: String(id), events: ["team"] };
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const inputs = await checked(news);
    expect(String(told.mock.calls[0]?.[0])).toContain(
      `OrgWebhook acme-eng/${id} (importId ${id}): adopting it will change contentType: "json" => "form"`,
    );
    told.mockRestore();
    const writes = () =>
      emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(created.id).toBe(`acme-eng/${id}`);
    expect(writes()).toEqual(["PATCH /orgs/{org}/hooks/{hook_id}"]);
    expect(stored()).toHaveLength(1);
    expect(stored()[0]?.config.content_type).toBe("form");

    // Adopting a hook that is as the program says writes nothing.
    emulator.controls.clearLog();
    await provider.create(await checked(news));
    expect(writes()).toEqual([]);
  });

  it("tells which importId to set when the URL is already hooked in the organisation", async () => {
    const existing = await api(emulator, "POST", HOOKS, { name: "web", config: { url: base.url } });
    const id = (existing.body as { id: number }).id;
    await expect(provider.create(await checked(base))).rejects.toThrow(
      new RegExp(`a webhook for ${base.url} already exists there \\(id ${id}\\).*Set importId to ${id}`, "s"),
    );
  });

  it("drops a hook deleted outside Pulumi on read, and delete of a gone hook succeeds", async () => {
    const created = await provider.create(await checked(base));
    await api(emulator, "DELETE", `${HOOKS}/${created.outs.hookId}`);
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("deletes the hook, and reads one by id alone (static get)", async () => {
    const created = await provider.create(await checked({ ...base, secret: "x" }));
    const got = await provider.read(created.id);
    expect(got.props).toMatchObject({ org: "acme-eng", url: base.url, secret: SECRET_SET_OUTSIDE });
    await provider.delete(created.id, created.outs);
    expect(stored()).toEqual([]);
  });

  it("never takes the 404 a non-owner gets for a deleted hook, on read, update or delete", async () => {
    const created = await provider.create(await checked(base));
    emulator.store.state.fixture.tokens.svcp_member_hooks = {
      kind: "classic",
      user: "octocat",
      scopes: ["admin:org_hook"],
      permissions: {},
    };
    useToken(emulator, "svcp_member_hooks");
    const notOwner =
      /the server answered 404 to the webhooks of acme-eng: there is no organisation acme-eng, or the token's user is not one of its owners/;
    await expect(provider.read(created.id, created.outs)).rejects.toThrow(notOwner);
    await expect(provider.delete(created.id, created.outs)).rejects.toThrow(notOwner);
    await expect(provider.update(created.id, created.outs, await checked(base))).rejects.toThrow(
      /Use the token of an owner of acme-eng/,
    );
    expect(stored()).toHaveLength(1);
  });

  it("explains a token without the organisation hook scope with what the endpoint accepts", async () => {
    useToken(emulator, "svcp_owner");
    await expect(provider.create(await checked(base))).rejects.toThrow(/admin:org_hook/);
    expect(stored()).toEqual([]);
  });

  it("refuses an id of the wrong form", async () => {
    await expect(provider.read("acme-eng")).rejects.toThrow(/org\/hookId/);
  });
});
