/**
 * `startEmulator({ data })` persists state across restarts with atomic writes (DESIGN.md, The
 * sandbox server); without `data` nothing is written. The file-system calls of the server are
 * observed through spies that still do the real work.
 */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { call, control, createGlobalHook, createRepoHook, type Json, MASK } from "./helpers";

vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  return {
    ...actual,
    default: actual,
    writeFileSync: vi.fn(actual.writeFileSync),
    renameSync: vi.fn(actual.renameSync),
  };
});

const HOOKS = "/repos/acme-eng/api/hooks";
let dir: string;
let file: string;
const running: RunningEmulator[] = [];

async function start(data?: string): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port: 0, ...(data === undefined ? {} : { data }) });
  running.push(emulator);
  return emulator;
}

async function stop(emulator: RunningEmulator): Promise<void> {
  running.splice(running.indexOf(emulator), 1);
  await emulator.close();
}

function readState(): Json {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

beforeAll(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "hosting-emulator-persist-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach((context) => {
  file = join(dir, `${context.task.id}`, "state.json");
  vi.mocked(fs.writeFileSync).mockClear();
  vi.mocked(fs.renameSync).mockClear();
});
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});

describe("with a data file", () => {
  it("writes the initial state, creating the folder", async () => {
    expect(fs.existsSync(file)).toBe(false);
    await start(file);
    const state = readState();
    expect(state).toMatchObject({ schema: 2, nextId: 1, repoHooks: [], globalHooks: [], deliveries: [] });
    expect(Object.keys(state.fixture.tokens)).toContain("svcp_siteadmin");
  });

  it("keeps hooks across a restart, and ids continue", async () => {
    const first = await start(file);
    const repoHook = await createRepoHook(first, {
      events: ["push", "issues"],
      config: { url: "https://example.com/persist", content_type: "json", secret: "kept" },
    });
    const globalHook = await createGlobalHook(first);
    await call(first, "POST", `${HOOKS}/${repoHook.id}/pings`);
    await stop(first);

    const second = await start(file);
    const get = await call(second, "GET", `${HOOKS}/${repoHook.id}`);
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({
      id: repoHook.id,
      events: ["push", "issues"],
      config: { url: "https://example.com/persist", content_type: "json", insecure_ssl: "0", secret: MASK },
      created_at: repoHook.created_at,
      last_response: { code: 200 },
    });
    expect(get.body.url.startsWith(second.url)).toBe(true);
    expect((await call(second, "GET", `/admin/hooks/${globalHook.id}`)).status).toBe(200);
    expect((await call(second, "GET", `${HOOKS}/${repoHook.id}/deliveries`)).body).toHaveLength(1);

    const next = await createRepoHook(second, { config: { url: "https://example.com/next" } });
    const usedIds = [repoHook.id, globalHook.id];
    expect(usedIds).not.toContain(next.id);
    expect(next.id).toBeGreaterThan(Math.max(...usedIds));
    // The secret itself survived the restart (a PATCH sending it again keeps it).
    expect(readState().repoHooks.find((h: { id: number }) => h.id === repoHook.id).config.secret).toBe(
      "kept",
    );
  });

  it("leaves valid JSON reflecting every change after each write", async () => {
    const emulator = await start(file);
    const hook = await createRepoHook(emulator);
    expect(readState().repoHooks.map((h: { id: number }) => h.id)).toEqual([hook.id]);

    await call(emulator, "PATCH", `${HOOKS}/${hook.id}`, { body: { active: false } });
    expect(readState().repoHooks[0].active).toBe(false);

    await call(emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { body: { content_type: "json" } });
    expect(readState().repoHooks[0].config.content_type).toBe("json");

    await call(emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    expect(readState().deliveries).toHaveLength(1);

    const global = await createGlobalHook(emulator);
    expect(readState().globalHooks.map((h: { id: number }) => h.id)).toEqual([global.id]);

    await call(emulator, "DELETE", `${HOOKS}/${hook.id}`);
    const state = readState();
    expect(state.repoHooks).toEqual([]);
    expect(state.deliveries).toEqual([]);
    expect(fs.readdirSync(join(file, "..")).filter((name) => name !== "state.json")).toEqual([]);
  });

  it("writes atomically: a temporary file renamed over the data file", async () => {
    const emulator = await start(file);
    vi.mocked(fs.renameSync).mockClear();
    await createRepoHook(emulator);
    const renames = vi.mocked(fs.renameSync).mock.calls;
    expect(renames).toHaveLength(1);
    const [from, to] = renames[0] as [string, string];
    expect(to).toBe(file);
    expect(from).not.toBe(file);
    expect(String(from).startsWith(file)).toBe(true);
    expect(fs.existsSync(from)).toBe(false);
  });

  it("does not write for reads or refused requests", async () => {
    const emulator = await start(file);
    await createRepoHook(emulator);
    vi.mocked(fs.writeFileSync).mockClear();
    await call(emulator, "GET", HOOKS);
    await call(emulator, "POST", HOOKS, { body: { config: { url: "bad" } } });
    await call(emulator, "POST", HOOKS, {
      token: "svcp_noscopes",
      body: { config: { url: "https://e.com" } },
    });
    expect(vi.mocked(fs.writeFileSync)).not.toHaveBeenCalled();
  });

  it("reset writes the fresh state", async () => {
    const emulator = await start(file);
    await createRepoHook(emulator);
    expect(readState().repoHooks).toHaveLength(1);
    expect((await control(emulator, "POST", "/reset")).status).toBe(204);
    expect(readState()).toMatchObject({ nextId: 1, repoHooks: [], globalHooks: [], deliveries: [] });
    await stop(emulator);
    const again = await start(file);
    expect((await call(again, "GET", HOOKS)).body).toEqual([]);
  });

  it("starts collections added since a file of the same schema was written empty", async () => {
    const first = await startEmulator({ port: 0, data: file });
    await first.close();
    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    delete saved.budgets;
    delete saved.privateRegistries;
    fs.writeFileSync(file, JSON.stringify(saved));
    const second = await startEmulator({ port: 0, data: file });
    try {
      expect(second.store.state.budgets).toEqual([]);
      expect(second.store.state.privateRegistries).toEqual([]);
      expect(second.store.state.repoHooks).toEqual(saved.repoHooks);
    } finally {
      await second.close();
    }
  });

  it("refuses to start from a file of another schema", async () => {
    fs.mkdirSync(join(file, ".."), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ schema: 99 }));
    await expect(startEmulator({ port: 0, data: file })).rejects.toThrow(/schema 99/);
  });

  it("refuses to start from a file that is not JSON", async () => {
    fs.mkdirSync(join(file, ".."), { recursive: true });
    fs.writeFileSync(file, "{ half a file");
    await expect(startEmulator({ port: 0, data: file })).rejects.toThrow();
  });
});

describe("without a data file", () => {
  it("writes nothing, and a restart starts empty", async () => {
    const emulator = await start();
    const hook = await createRepoHook(emulator, { config: { url: "https://example.com/mem", secret: "x" } });
    await call(emulator, "PATCH", `${HOOKS}/${hook.id}`, { body: { active: false } });
    await call(emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    await createGlobalHook(emulator);
    await control(emulator, "POST", "/reset");
    await stop(emulator);
    expect(vi.mocked(fs.writeFileSync)).not.toHaveBeenCalled();
    expect(vi.mocked(fs.renameSync)).not.toHaveBeenCalled();

    const again = await start();
    expect((await call(again, "GET", HOOKS)).body).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("the spies do see the writes of a server with a data file", async () => {
    await start(file);
    expect(vi.mocked(fs.writeFileSync)).toHaveBeenCalled();
  });
});
