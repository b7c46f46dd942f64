/**
 * Lifecycle of Repository and RepositoryDeployKey: provider methods called directly against the
 * sandbox server, as the engine calls them. Create, a rename that keeps the repository's identity,
 * outside changes named by read and repaired by update, declared settings only, settings the
 * platform shows otherwise, adoption, and destroy per onDestroy (an adopted repository never
 * archived nor deleted); deploy keys added, adopted, following a renamed repository.
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import {
  repositoryDeployKeyProvider as keys,
  repositoryProvider as provider,
  type RepositoryDeployKeyInputs,
  type RepositoryInputs,
  type RepositoryOutputs,
} from "../../../provider/resources/repositories";
import { sshPublicKey } from "../../emulator/helpers";
import { api, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

async function checked(news: Record<string, unknown>): Promise<RepositoryInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as RepositoryInputs);
}

/** Creates from the inputs as the program wrote them, and clears the request log. */
async function created(news: Record<string, unknown>) {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  const made = await provider.create(result.inputs as RepositoryInputs);
  emulator.controls.clearLog();
  return made;
}

/** The world's record of a repository, by id. */
const world = (id: number) => emulator.store.state.fixture.repos.find((r) => r.id === id);

async function noticesOf(run: () => Promise<unknown>): Promise<string[]> {
  const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    await run();
    return told.mock.calls.map((c) => String(c[0]));
  } finally {
    told.mockRestore();
  }
}

const svc = { org: "acme-eng", name: "svc" };

describe("Repository check and diff", () => {
  it.each([
    [{ org: "acme-eng" }, "name", "name is required"],
    [{ ...svc, name: "a b" }, "name", "may hold only"],
    [{ ...svc, name: "x.git" }, "name", ".git"],
    [{ ...svc, visibility: "secret" }, "visibility", '"public", "private", "internal"'],
    [{ ...svc, topics: ["-bad"] }, "topics", "is not a topic"],
    [{ ...svc, homepage: "svc.example" }, "homepage", "absolute http(s) URL"],
    [{ ...svc, onDestroy: "drop" }, "onDestroy", '"archive", "delete", "retain"'],
    [
      { ...svc, allowMergeCommit: false, allowSquashMerge: false, allowRebaseMerge: false },
      "allowMergeCommit",
      "at least one way to merge",
    ],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await provider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.log).toEqual([]);
  });

  it("applies onDestroy's default and nothing else", async () => {
    expect(await checked(svc)).toEqual({ ...svc, onDestroy: "archive" });
  });

  it("renames in place, replaces only for another organisation, and compares as the platform means", async () => {
    const olds = {
      ...svc,
      description: null,
      topics: ["api", "backend"],
      onDestroy: "archive",
      repositoryId: 2000,
    } as unknown as RepositoryOutputs;
    const diff = (news: Record<string, unknown>) => provider.diff("acme-eng/svc", olds, news as never);
    expect(
      await diff({ ...svc, name: "service", topics: ["api", "backend"], onDestroy: "archive" }),
    ).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(
      (await diff({ ...svc, org: "acme-ops", topics: ["api", "backend"], onDestroy: "archive" })).replaces,
    ).toEqual(["org"]);
    // An emptied description is no description; topics are a set in lower case.
    expect(
      (await diff({ ...svc, description: "", topics: ["Backend", "api"], onDestroy: "archive" })).changes,
    ).toBe(false);
    expect((await diff({ ...svc, topics: ["api"], onDestroy: "archive" })).changes).toBe(true);
    // autoInit is read at create only.
    expect(
      (await diff({ ...svc, topics: ["api", "backend"], autoInit: true, onDestroy: "archive" })).changes,
    ).toBe(false);
  });
});

describe("Repository lifecycle", () => {
  it("creates with one POST and what the POST cannot take after it, and reads back only the declared settings", async () => {
    const { id, outs } = await created({
      ...svc,
      description: "The service",
      visibility: "private",
      hasWiki: false,
      allowUpdateBranch: true,
      topics: ["Backend", "api"],
      autoInit: true,
    });
    expect(id).toBe("acme-eng/svc");
    expect(outs).toMatchObject({
      ...svc,
      description: "The service",
      visibility: "private",
      hasWiki: false,
      allowUpdateBranch: true,
      topics: ["backend", "api"],
      autoInit: true,
      onDestroy: "archive",
      fullName: "acme-eng/svc",
      adopted: false,
    });
    expect(outs.hasIssues).toBeUndefined();
    expect(outs.repositoryId).toBe(world(outs.repositoryId)?.id);
    const read = await provider.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.inputs).toEqual({
      ...svc,
      description: "The service",
      visibility: "private",
      hasWiki: false,
      allowUpdateBranch: true,
      // As the program wrote them: same set, same meaning.
      topics: ["Backend", "api"],
      autoInit: true,
    });
    expect(requestCounts(emulator)).toEqual({ "GET /repos/{owner}/{repo}": 1 });
  });

  it("sends one POST only when the POST takes every declared setting", async () => {
    emulator.controls.clearLog();
    await provider.create(await checked({ ...svc, description: "x", hasIssues: false }));
    expect(requestCounts(emulator)).toEqual({ "GET /repos/{owner}/{repo}": 1, "POST /orgs/{org}/repos": 1 });
  });

  it("renames in place: same repositoryId, reads follow it from the old id, which refresh moves", async () => {
    const { id, outs } = await created({ ...svc, description: "d" });
    const news = await checked({ ...svc, name: "service", description: "d" });
    const updated = await provider.update(id, outs, news);
    expect(updated.outs).toMatchObject({
      name: "service",
      repositoryId: outs.repositoryId,
      fullName: "acme-eng/service",
    });
    expect(world(outs.repositoryId)?.name).toBe("service");
    // The engine keeps the old id after an update; read finds the repository and gives its new id.
    const read = await provider.read(id, updated.outs);
    expect(read.id).toBe("acme-eng/service");
    expect(read.props).toMatchObject({ name: "service", repositoryId: outs.repositoryId });
    // Renamed outside Pulumi: read follows the redirect and names the drift.
    await api(emulator, "PATCH", "/repos/acme-eng/service", { name: "svc-2" });
    const drift = await provider.read("acme-eng/service", updated.outs);
    expect(drift.inputs).toMatchObject({ name: "svc-2" });
    const repaired = await provider.update("acme-eng/service", drift.props as RepositoryOutputs, news);
    expect(repaired.outs.name).toBe("service");
    expect(world(outs.repositoryId)?.name).toBe("service");
  });

  it("names a change made outside Pulumi, repairs it, and never shows settings the program leaves out", async () => {
    const { id, outs } = await created({ ...svc, description: "d", topics: ["a"] });
    await api(emulator, "PATCH", "/repos/acme-eng/svc", { description: "changed", has_wiki: false });
    await api(emulator, "PUT", "/repos/acme-eng/svc/topics", { names: ["a", "b"] });
    const read = await provider.read(id, outs);
    expect(read.inputs).toEqual({ ...svc, description: "changed", topics: ["a", "b"] });
    expect(
      await provider.diff(
        id,
        read.props as RepositoryOutputs,
        await checked({ ...svc, description: "d", topics: ["a"] }),
      ),
    ).toMatchObject({ changes: true });
    emulator.controls.clearLog();
    const repaired = await provider.update(
      id,
      read.props as RepositoryOutputs,
      await checked({ ...svc, description: "d", topics: ["a"] }),
    );
    expect(repaired.outs).toMatchObject({ description: "d", topics: ["a"] });
    expect(requestCounts(emulator)).toEqual({
      "PATCH /repos/{owner}/{repo}": 1,
      "PUT /repos/{owner}/{repo}/topics": 1,
    });
    // has_wiki is the platform's business here: still false, never read into state.
    const after = await api(emulator, "GET", "/repos/acme-eng/svc");
    expect((after.body as { has_wiki: boolean }).has_wiki).toBe(false);
  });

  it("keeps a merge setting the token cannot see as state knew it, rather than a change", async () => {
    const { id, outs } = await created({ ...svc, allowSquashMerge: false });
    // deploy-gate's installation token reads the repository without push access: no merge settings.
    useToken(emulator, "svcs_install");
    const read = await provider.read(id, outs);
    expect(read.inputs).toMatchObject({ allowSquashMerge: false });
  });

  it("adopts a repository that has the name, writing only what differs; destroy then leaves it", async () => {
    const adopted = await provider.create(
      await checked({ org: "acme-eng", name: "web", description: "The website" }),
    );
    expect(adopted.outs).toMatchObject({ adopted: true, repositoryId: 1001, description: "The website" });
    expect(requestCounts(emulator)).toEqual({
      "GET /repos/{owner}/{repo}": 1,
      "PATCH /repos/{owner}/{repo}": 1,
    });
    emulator.controls.clearLog();
    const again = await provider.create(
      await checked({ org: "acme-eng", name: "web", description: "The website" }),
    );
    expect(again.outs.adopted).toBe(true);
    expect(requestCounts(emulator)).toEqual({ "GET /repos/{owner}/{repo}": 1 });
    emulator.controls.clearLog();
    for (const onDestroy of ["archive", "delete"] as const) {
      const told = await noticesOf(() => provider.delete(adopted.id, { ...adopted.outs, onDestroy }));
      expect(told.join("")).toContain("existed before this stack (adopted)");
    }
    expect(emulator.controls.log).toEqual([]);
    expect(world(1001)).toMatchObject({ name: "web" });
    expect(world(1001)?.archived).toBeUndefined();
  });

  it.each([
    ["archive", { archived: true }],
    ["retain", {}],
  ] as const)("destroys with onDestroy %s", async (onDestroy, expected) => {
    const { id, outs } = await created({ ...svc, onDestroy });
    await provider.delete(id, outs);
    expect(world(outs.repositoryId)).toMatchObject({ name: "svc", ...expected });
    if (onDestroy === "retain") expect(emulator.controls.log).toEqual([]);
  });

  it("deletes only with onDestroy delete, and a delete after it is done", async () => {
    const { id, outs } = await created({ ...svc, onDestroy: "delete" });
    await provider.delete(id, outs);
    expect(world(outs.repositoryId)).toBeUndefined();
    await provider.delete(id, outs);
    expect(await provider.read(id, outs)).toEqual({});
  });

  it("does not archive or delete another repository that took the name", async () => {
    const { id, outs } = await created({ ...svc, onDestroy: "delete" });
    await api(emulator, "DELETE", "/repos/acme-eng/svc");
    const other = await api(emulator, "POST", "/orgs/acme-eng/repos", { name: "svc" });
    expect(await provider.read(id, outs)).toEqual({});
    await provider.delete(id, outs);
    expect(world((other.body as { id: number }).id)).toMatchObject({ name: "svc" });
  });

  it("refuses to change an archived repository before any write, and unarchives first when asked", async () => {
    const { id, outs } = await created({ ...svc, description: "d", archived: true });
    expect(world(outs.repositoryId)?.archived).toBe(true);
    await expect(
      provider.update(id, outs, await checked({ ...svc, description: "e", archived: true })),
    ).rejects.toThrow(/archived, so it is read-only: description cannot change.*archived: false/);
    expect(emulator.controls.log).toEqual([]);
    const back = await provider.update(
      id,
      outs,
      await checked({ ...svc, description: "e", archived: false }),
    );
    expect(back.outs).toMatchObject({ description: "e", archived: false });
  });

  it("stops managing a setting taken out of the program: no request, and no change after", async () => {
    const { id, outs } = await created({ ...svc, description: "d", hasWiki: false });
    const news = await checked(svc);
    expect((await provider.diff(id, outs, news)).changes).toBe(true);
    const updated = await provider.update(id, outs, news);
    expect(emulator.controls.log).toEqual([]);
    expect(updated.outs).not.toHaveProperty("description");
    expect(updated.outs).not.toHaveProperty("hasWiki");
    expect((await provider.diff(id, updated.outs, news)).changes).toBe(false);
    expect(world(outs.repositoryId)).toBeDefined();
    const read = await provider.read(id, updated.outs);
    expect(read.inputs).toEqual({ ...svc, onDestroy: "archive" });
  });

  it("updates state only when onDestroy alone changes", async () => {
    const { id, outs } = await created(svc);
    const updated = await provider.update(id, outs, await checked({ ...svc, onDestroy: "retain" }));
    expect(updated.outs.onDestroy).toBe("retain");
    expect(emulator.controls.log).toEqual([]);
  });

  it("imports a repository with every setting it has", async () => {
    const read = await provider.read("acme-eng/api", {});
    expect(read.inputs).toMatchObject({
      org: "acme-eng",
      name: "api",
      visibility: "private",
      hasIssues: true,
      defaultBranch: "main",
      allowMergeCommit: true,
      archived: false,
      topics: [],
    });
    expect(read.inputs).not.toHaveProperty("description");
    // Imported, it existed before the stack: destroy will leave it.
    expect(read.props).toMatchObject({ adopted: true, repositoryId: 1000 });
  });
});

describe("RepositoryDeployKey lifecycle", () => {
  const line = () => sshPublicKey("ssh-ed25519", "ci@build");

  async function keyInputs(news: Record<string, unknown>): Promise<RepositoryDeployKeyInputs> {
    const result = await keys.check({}, news);
    expect(result.failures ?? []).toEqual([]);
    return keys.inputsOf(result.inputs as RepositoryDeployKeyInputs);
  }

  it("refuses a bad key at check, and replaces on any field", async () => {
    const result = await keys.check(
      {},
      { owner: "acme-eng", repository: "api", title: "t", key: "ssh-ed25519 AAAA" },
    );
    expect(result.failures?.[0]?.property).toBe("key");
    const key = line().split(" ").slice(0, 2).join(" ");
    const olds = { owner: "acme-eng", repository: "api", title: "t", key, readOnly: true } as never;
    expect((await keys.diff("x", olds, { ...(olds as object), readOnly: false } as never)).replaces).toEqual([
      "readOnly",
    ]);
  });

  it("adds a read-only key in its canonical form, reads it, and deletes it", async () => {
    const key = line();
    const { id, outs } = await keys.create(
      await keyInputs({ owner: "acme-eng", repository: "api", title: "ci", key }),
    );
    expect(id).toBe(`acme-eng/api/${outs.keyId}`);
    expect(outs).toMatchObject({ title: "ci", readOnly: true, key: key.split(" ").slice(0, 2).join(" ") });
    const read = await keys.read(id, outs);
    expect(read.props).toEqual(outs);
    await keys.delete(id, outs);
    expect(await keys.read(id, outs)).toEqual({});
  });

  it("adopts the repository's own key (same material) instead of failing, and explains a key used elsewhere", async () => {
    const key = line();
    await api(emulator, "POST", "/repos/acme-eng/api/keys", { title: "ci", key, read_only: true });
    const adopted = await keys.create(
      await keyInputs({ owner: "acme-eng", repository: "api", title: "ci", key }),
    );
    expect(emulator.store.state.deployKeys).toHaveLength(1);
    expect(adopted.outs.keyId).toBe(emulator.store.state.deployKeys[0]?.id);
    await expect(
      keys.create(await keyInputs({ owner: "acme-eng", repository: "web", title: "ci", key })),
    ).rejects.toThrow(/already in use elsewhere on the platform/);
  });

  it("follows its repository through a rename: the replacement under the new name adopts the key", async () => {
    const repo = await created({ ...svc });
    const key = line();
    const made = await keys.create(
      await keyInputs({ owner: "acme-eng", repository: "svc", title: "ci", key }),
    );
    await provider.update(repo.id, repo.outs, await checked({ ...svc, name: "service" }));
    // The engine replaces the key (its repository changed): delete under the old name, then create.
    await keys.delete(made.id, made.outs);
    const moved = await keys.create(
      await keyInputs({ owner: "acme-eng", repository: "service", title: "ci", key }),
    );
    expect(moved.outs.keyId).toBe(made.outs.keyId);
    expect(emulator.store.state.deployKeys).toHaveLength(1);
  });
});
