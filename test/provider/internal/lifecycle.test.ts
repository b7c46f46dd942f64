/**
 * The lifecycle every provider shares: check and diff derived from the spec, read's inputs from the
 * rules, the upgrade of a recorded provider without a request, the 404 rules, and the pending
 * record of a create whose outcome is unknown.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { HostingApiError } from "../../../provider/client/errors";
import { createWithoutDuplicates, PartialCreateError } from "../../../provider/internal/creates";
import { declareKind, field, output } from "../../../provider/internal/declare";
import {
  defineProvider,
  deleteIgnoringGone,
  type ProviderSpec,
  readOrGone,
} from "../../../provider/internal/lifecycle";

const inputs = z.object({
  name: field(z.string(), { description: "The name.", replace: true }),
  tags: field(z.array(z.string()).default([]), { description: "Tags.", set: true }),
});
type Inputs = z.infer<typeof inputs>;
const thing = declareKind({
  kind: "Thing",
  description: "A thing.",
  idFormat: ["serverId"],
  inputs,
  outputs: z.object({ serverId: output(z.number(), "The id.") }),
});
type Outputs = Inputs & { serverId: number };

const notFound = new HostingApiError({ code: "not_found", status: 404 });
const forbidden = new HostingApiError({ code: "forbidden", status: 403 });

function provider(overrides: Partial<ProviderSpec<typeof inputs, Outputs>> = {}) {
  const spec: ProviderSpec<typeof inputs, Outputs> = {
    create: vi.fn(async (i: Inputs) => ({ id: "1", outs: { ...i, serverId: 1 } })),
    read: vi.fn(async (id: string) => ({ id, props: { name: "n", tags: ["b", "a"], serverId: 1 } })),
    update: vi.fn(async (_id: string, _olds: Outputs, news: Inputs) => ({ outs: { ...news, serverId: 1 } })),
    delete: vi.fn(async () => undefined),
    ...overrides,
  };
  return { spec, provider: defineProvider(thing, spec) };
}

describe("defineProvider", () => {
  it("names the kind and checks with the schema, naming the field", async () => {
    const { provider: p } = provider();
    expect(p.kind).toBe("Thing");
    // The inputs as written are recorded: defaults are the schema's reading, applied where used.
    expect(await p.check({}, { name: "n" })).toEqual({ inputs: { name: "n" } });
    const bad = await p.check({}, { name: 7 });
    expect(bad.failures?.[0]?.property).toBe("name");
  });

  it("diffs by the rules: sets ignore order, replace fields replace", async () => {
    const { provider: p } = provider();
    const olds: Outputs = { name: "n", tags: ["a", "b"], serverId: 1 };
    expect(await p.diff("1", olds, { name: "n", tags: ["b", "a"] })).toMatchObject({ changes: false });
    expect(await p.diff("1", olds, { name: "m", tags: ["a", "b"] })).toMatchObject({
      changes: true,
      replaces: ["name"],
    });
  });

  it("compares values through comparable", async () => {
    const lower = (v: object) => ({ ...v, name: String((v as Inputs).name).toLowerCase() });
    const { provider: p } = provider({ comparable: lower });
    const olds: Outputs = { name: "Mona", tags: [], serverId: 1 };
    expect(await p.diff("1", olds, { name: "mona", tags: [] })).toMatchObject({ changes: false });
  });

  it("adds read's inputs from the rules, leaving output-only fields out", async () => {
    const { provider: p } = provider();
    expect(await p.read("1")).toEqual({
      id: "1",
      props: { name: "n", tags: ["b", "a"], serverId: 1 },
      inputs: { name: "n", tags: ["b", "a"] },
    });
  });

  it("reports an update, never a replacement, when only the recorded provider differs", async () => {
    const { provider: p } = provider();
    const olds = { name: "n", tags: [], serverId: 1, __provider: "old shim" };
    const news = { name: "n", tags: [], __provider: "require(new)" };
    expect(await p.diff("1", olds, news)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const unchanged = { ...news, __provider: "old shim" };
    expect(await p.diff("1", olds, unchanged)).toMatchObject({ changes: false });
  });

  it("rewrites the state without calling the API when only the recorded provider differs", async () => {
    const { spec, provider: p } = provider();
    const olds = { name: "n", tags: [], serverId: 1, __provider: "old shim" };
    const same: Inputs & { __provider: string } = { name: "n", tags: [], __provider: "require(new)" };
    const result = await p.update("1", olds, same);
    expect(result).toEqual({ outs: { name: "n", tags: [], serverId: 1 } });
    // A program that leaves the default out gets it recorded as such by the same rewrite.
    const leftOut = await p.update("1", olds, { name: "n", __provider: "require(new)" } as unknown as Inputs);
    expect(leftOut).toEqual({ outs: { name: "n", tags: [], serverId: 1, __asWritten: { tags: [[]] } } });
    expect(spec.update).not.toHaveBeenCalled();
    expect(spec.update).not.toHaveBeenCalled();
    await p.update("1", olds, { ...same, tags: ["x"] });
    expect(spec.update).toHaveBeenCalledTimes(1);
  });
});

describe("inputs as the program wrote them", () => {
  const ids = z.object({
    name: field(z.string(), { description: "The name." }),
    importId: field(z.union([z.string(), z.number()]).transform(String).optional(), {
      description: "Adopts.",
      createOnly: true,
    }),
  });
  type IdInputs = z.infer<typeof ids>;
  const idThing = declareKind({
    kind: "Thing",
    description: "",
    idFormat: [],
    inputs: ids,
    outputs: z.object({ serverId: output(z.number(), "The id.") }),
  });

  it("acts on the schema's reading, and read reports an unchanged object as the program wrote it", async () => {
    const { spec, provider: p } = provider({
      read: vi.fn(async (id: string) => ({ id, props: { name: "n", tags: ["b", "a"], serverId: 1 } })),
    });
    const created = await p.create({ name: "n" } as Inputs);
    expect(spec.create).toHaveBeenCalledWith({ name: "n", tags: [] });
    expect(created.outs).toEqual({ name: "n", tags: [], serverId: 1, __asWritten: { tags: [[]] } });

    // The server still has the default: tags stays left out, as in the program.
    const unchanged = vi
      .mocked(spec.read)
      .mockResolvedValueOnce({ id: "1", props: { name: "n", tags: [], serverId: 1 } });
    expect(await p.read("1", created.outs)).toEqual({
      id: "1",
      props: created.outs,
      inputs: { name: "n" },
    });
    expect(unchanged).toHaveBeenCalledTimes(1);

    // Changed outside Pulumi: reported as it now is, so refresh shows the drift.
    const drifted = await p.read("1", created.outs);
    expect(drifted.inputs).toEqual({ name: "n", tags: ["b", "a"] });
    expect(drifted.props).toMatchObject({ __asWritten: { tags: [[]] } });
  });

  it("reports a value written in another form (an id as a number) in the program's form", async () => {
    const spec: ProviderSpec<typeof ids, IdInputs & { serverId: number }> = {
      create: vi.fn(async (i: IdInputs) => ({ id: "1", outs: { ...i, serverId: 1 } })),
      read: vi.fn(async (id: string) => ({ id, props: { name: "n", importId: "42", serverId: 1 } })),
      update: vi.fn(),
      delete: vi.fn(),
    };
    const p = defineProvider(idThing, spec);
    const written = { name: "n", importId: 42 } as unknown as IdInputs;
    expect(await p.check({}, written)).toEqual({ inputs: written });
    const { outs } = await p.create(written);
    expect(spec.create).toHaveBeenCalledWith({ name: "n", importId: "42" });
    expect((await p.read("1", outs)).inputs).toEqual({ name: "n", importId: 42 });
  });

  it("reports a set as the program ordered it, and keeps showing what the object was left unlike", async () => {
    const { spec, provider: p } = provider({
      create: vi.fn(async (i: Inputs) => ({ id: "1", outs: { ...i, tags: ["b", "a"], serverId: 1 } })),
    });
    const { outs } = await p.create({ name: "n", tags: ["a", "b"] });
    expect(outs).toMatchObject({
      __asWritten: {
        tags: [
          ["b", "a"],
          ["a", "b"],
        ],
      },
    });
    vi.mocked(spec.read).mockResolvedValueOnce({
      id: "1",
      props: { name: "n", tags: ["b", "a"], serverId: 1 },
    });
    expect((await p.read("1", outs)).inputs).toEqual({ name: "n", tags: ["a", "b"] });
    // A create that left the object unlike the program records nothing for that field.
    const unlike = provider({
      create: vi.fn(async () => ({ id: "1", outs: { name: "n", tags: ["x"], serverId: 1 } })),
    });
    expect((await unlike.provider.create({ name: "n", tags: ["a"] })).outs).not.toHaveProperty("__asWritten");
  });

  it("never records a secret's written form", async () => {
    const secrets = z.object({ token: field(z.string().trim(), { description: "A token.", secret: true }) });
    const kind = declareKind({
      kind: "Thing",
      description: "",
      idFormat: [],
      inputs: secrets,
      outputs: z.object({}),
    });
    const p = defineProvider(kind, {
      create: async (i: { token: string }) => ({ id: "1", outs: i }),
      read: vi.fn(),
      update: vi.fn(),
      delete: vi.fn(),
    });
    expect((await p.create({ token: " s3cr3t " })).outs).toEqual({ token: "s3cr3t" });
  });
});

describe("sets read back in another order", () => {
  it("keep the order state recorded, in outputs and inputs", async () => {
    const { provider: p } = provider();
    const recorded = { name: "n", tags: ["a", "b"], serverId: 1 };
    const read = await p.read("1", recorded);
    expect(read.props?.tags).toEqual(["a", "b"]);
    expect(read.inputs).toMatchObject({ tags: ["a", "b"] });
  });

  it("report another set as the server has it", async () => {
    const { provider: p } = provider();
    const read = await p.read("1", { name: "n", tags: ["a", "c"], serverId: 1 });
    expect(read.props?.tags).toEqual(["b", "a"]);
  });
});

describe("404 rules", () => {
  it("readOrGone: a 404 is gone, anything else fails", async () => {
    expect(await readOrGone(async () => "found")).toBe("found");
    expect(await readOrGone(() => Promise.reject(notFound))).toBeUndefined();
    await expect(readOrGone(() => Promise.reject(forbidden))).rejects.toBe(forbidden);
  });

  it("deleteIgnoringGone: a 404 is done, anything else fails", async () => {
    await expect(deleteIgnoringGone(() => Promise.reject(notFound))).resolves.toBeUndefined();
    await expect(deleteIgnoringGone(() => Promise.reject(forbidden))).rejects.toBe(forbidden);
  });
});

describe("a create whose outcome is unknown", () => {
  const dropped = new HostingApiError({ code: "network_error" });
  const badGateway = new HostingApiError({ code: "server_error", status: 502 });
  const noSleep = async () => {};

  /** A kind whose create goes through createWithoutDuplicates against `server` (made objects by name). */
  function kindOver(server: { made: string[]; answers: boolean; lists: boolean }) {
    const since: number[] = [];
    return {
      since,
      ...provider({
        create: vi.fn(async (i: Inputs) => {
          const made = await createWithoutDuplicates(
            async () => {
              server.made.push(i.name);
              if (!server.answers) throw dropped;
              return server.made.length;
            },
            async (startedAt) => {
              since.push(startedAt);
              if (!server.lists) throw badGateway;
              const at = server.made.indexOf(i.name);
              return at < 0 ? undefined : at + 1;
            },
            noSleep,
          );
          return { id: String(made.value), outs: { ...i, serverId: made.value } };
        }),
      }),
    };
  }

  it("is kept in state as pending, and the next up adopts what it made instead of asking for importId", async () => {
    const server = { made: [] as string[], answers: false, lists: false };
    const { provider: p, spec, since } = kindOver(server);
    const failure = await p.create({ name: "n", tags: [] }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PartialCreateError);
    const { id, properties } = failure as PartialCreateError;
    expect(id).toMatch(/^pending-create:\d+$/);
    expect(properties).toMatchObject({ name: "n" });
    expect((failure as Error).message).toMatch(
      /^server error; whether the Thing was made cannot be told now: it is kept in state as pending, and the next `pulumi up` adopts it/,
    );
    expect(server.made).toEqual(["n"]);

    // The next up: the server answers again. Diff replaces the pending record, deleting it first.
    server.answers = true;
    server.lists = true;
    const olds = properties as Outputs;
    expect(await p.diff(id, olds, { name: "n", tags: [] })).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
    // A refresh in between leaves the record as it is, without a request.
    expect(await p.read(id, olds)).toEqual({ id, props: olds, inputs: { name: "n", tags: [] } });
    await p.delete(id, olds);
    expect(spec.delete).not.toHaveBeenCalled();
    const created = await p.create({ name: "n", tags: [] });
    expect(created).toMatchObject({ id: "1", outs: { serverId: 1 } });
    expect(server.made).toEqual(["n"]);
    // The look-up went by when the first create began.
    expect(new Set(since).size).toBe(1);
  });

  it("makes the object on the next up when the earlier create made none", async () => {
    const server = { made: [] as string[], answers: true, lists: true };
    const { provider: p } = kindOver(server);
    const id = "pending-create:1700000000000";
    await p.diff(id, { name: "n" } as Outputs, { name: "n", tags: [] });
    await p.delete(id, { name: "n" } as Outputs);
    expect(await p.create({ name: "n", tags: [] })).toMatchObject({ id: "1" });
    expect(server.made).toEqual(["n"]);
  });

  it("stays pending, with the same start, while the look-up still fails", async () => {
    const server = { made: ["n"], answers: true, lists: false };
    const { provider: p } = kindOver(server);
    const id = "pending-create:1700000000000";
    await p.diff(id, { name: "n" } as Outputs, { name: "n", tags: [] });
    await p.delete(id, { name: "n" } as Outputs);
    const failure = await p.create({ name: "n", tags: [] }).catch((e: unknown) => e);
    expect((failure as PartialCreateError).id).toBe(id);
    expect(server.made).toEqual(["n"]);
  });

  it("is not deleted by a destroy that never diffed it: the stack does not know what it is", async () => {
    const { provider: p, spec } = provider();
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let said: string;
    try {
      await p.delete("pending-create:1700000000000", { name: "n" } as Outputs);
      said = told.mock.calls.map(([line]) => String(line)).join("");
    } finally {
      told.mockRestore();
    }
    expect(spec.delete).not.toHaveBeenCalled();
    expect(said).toMatch(
      /Thing: a create at 2023-11-14T22:13:20.000Z may have made one .* delete it on the platform/,
    );
  });
});
