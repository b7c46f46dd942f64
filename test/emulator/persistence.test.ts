/**
 * `startEmulator({ data })` keeps state in an SQLite file across restarts (emulator/store.ts,
 * emulator/database.ts): every request one transaction, nothing of a failed one applied, ids never
 * handed out twice; a JSON state file of schema 2 is migrated; a file that is no store is refused,
 * untouched. Without `data` nothing is written.
 */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { freshState } from "../../emulator/store";
import { call, control, createGlobalHook, createRepoHook, type Json, MASK } from "./helpers";

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

/** The rows of one collection as the (closed) data file holds them, in order. */
function storedRows(collection: string): Json[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (
      db.prepare("SELECT value FROM rows WHERE collection = ? ORDER BY id").all(collection) as Array<{
        value: string;
      }>
    ).map((r) => JSON.parse(r.value));
  } finally {
    db.close();
  }
}

beforeAll(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "hosting-emulator-persist-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach((context) => {
  file = join(dir, `${context.task.id}`, "sandbox.db");
});
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});

describe("with a data file", () => {
  it("creates the folder and an SQLite database holding the fixture", async () => {
    expect(fs.existsSync(file)).toBe(false);
    const emulator = await start(file);
    await stop(emulator);
    expect(fs.readFileSync(file).subarray(0, 15).toString()).toBe("SQLite format 3");
    expect(storedRows("runnerGroups").length).toBeGreaterThan(0);
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
    expect((await call(second, "GET", `/admin/hooks/${globalHook.id}`)).status).toBe(200);
    expect((await call(second, "GET", `${HOOKS}/${repoHook.id}/deliveries`)).body).toHaveLength(1);
    const next = await createRepoHook(second, { config: { url: "https://example.com/next" } });
    expect(next.id).toBeGreaterThan(Math.max(repoHook.id, globalHook.id));
    // The secret itself survived the restart.
    expect(second.store.state.repoHooks.find((h) => h.id === repoHook.id)?.config.secret).toBe("kept");
  });

  it("writes each change as rows: updates, deletions and the order of a collection", async () => {
    const emulator = await start(file);
    const a = await createRepoHook(emulator, { config: { url: "https://example.com/a" } });
    const b = await createRepoHook(emulator, { config: { url: "https://example.com/b" } });
    await call(emulator, "PATCH", `${HOOKS}/${a.id}`, { body: { active: false } });
    await call(emulator, "POST", `${HOOKS}/${b.id}/pings`);
    await call(emulator, "DELETE", `${HOOKS}/${a.id}`);
    const c = await createRepoHook(emulator, { config: { url: "https://example.com/c" } });
    await stop(emulator);
    expect(storedRows("repoHooks").map((h) => [h.id, h.active])).toEqual([
      [b.id, true],
      [c.id, true],
    ]);
    expect(storedRows("deliveries").map((d) => d.hook_id)).toEqual([b.id]);
    expect(fs.readdirSync(join(file, "..")).filter((name) => !name.startsWith("sandbox.db"))).toEqual([]);
  });

  it("a request refused half-way leaves nothing applied", async () => {
    const emulator = await start(file);
    const before = JSON.stringify(emulator.store.state);
    // The org-level PATCH writes each valid value in turn; an unknown property fails the request.
    const response = await call(emulator, "PATCH", "/repos/acme-eng/api/properties/values", {
      body: {
        properties: [
          { property_name: "tier", value: "gold" },
          { property_name: "no-such-property", value: "x" },
        ],
      },
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(emulator.store.state)).toBe(before);
  });

  it("a create whose commit fails answers 500, is not visible, and its retry succeeds with a new id", async () => {
    const emulator = await start(file);
    const first = await createRepoHook(emulator, { config: { url: "https://example.com/one" } });
    expect((await control(emulator, "PUT", "/store/full", { writes: 1 })).status).toBe(200);
    const failed = await call(emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/two" } },
    });
    expect(failed.status).toBe(500);
    expect((await call(emulator, "GET", HOOKS)).body.map((h: Json) => h.id)).toEqual([first.id]);
    const retried = await call(emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/two" } },
    });
    expect(retried.status).toBe(201);
    await stop(emulator);
    const again = await start(file);
    expect((await call(again, "GET", HOOKS)).body.map((h: Json) => h.config.url)).toEqual([
      "https://example.com/one",
      "https://example.com/two",
    ]);
    const third = await createRepoHook(again, { config: { url: "https://example.com/three" } });
    expect(new Set([first.id, retried.body.id, third.id]).size).toBe(3);
  });

  it("reset writes the fresh state", async () => {
    const emulator = await start(file);
    await createRepoHook(emulator);
    expect((await control(emulator, "POST", "/reset")).status).toBe(204);
    await stop(emulator);
    expect(storedRows("repoHooks")).toEqual([]);
    const again = await start(file);
    expect((await call(again, "GET", HOOKS)).body).toEqual([]);
  });

  it("removes the temporary files earlier versions could leave behind, and nothing else", async () => {
    fs.mkdirSync(join(file, ".."), { recursive: true });
    fs.writeFileSync(`${file}.4242.tmp`, "{}");
    fs.writeFileSync(join(file, "..", "notes.4242.tmp"), "mine");
    await stop(await start(file));
    expect(fs.existsSync(`${file}.4242.tmp`)).toBe(false);
    expect(fs.existsSync(join(file, "..", "notes.4242.tmp"))).toBe(true);
  });

  it("refuses a second server on the same file, naming it", async () => {
    await start(file);
    await expect(startEmulator({ port: 0, data: file })).rejects.toThrow(
      `${file}: is in use by another sandbox server`,
    );
  });
});

describe("a JSON state file of schema 2", () => {
  function writeJson(content: unknown): string {
    fs.mkdirSync(join(file, ".."), { recursive: true });
    const text = typeof content === "string" ? content : JSON.stringify(content);
    fs.writeFileSync(file, text);
    return text;
  }

  it("is migrated on first open, kept beside it, and its ids are never handed out again", async () => {
    const state = freshState();
    state.nextId = 3;
    state.repoHooks.push({
      id: 7,
      repo: "acme-eng/api",
      active: true,
      events: ["push"],
      config: { url: "https://example.com/old", content_type: "json", insecure_ssl: "0" },
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
      last_response: { code: null, status: "unused", message: null },
    });
    delete (state as Partial<typeof state>).budgets; // a collection added within schema 2
    const text = writeJson(state);
    const emulator = await start(file);
    expect((await call(emulator, "GET", HOOKS)).body.map((h: Json) => h.id)).toEqual([7]);
    expect(emulator.store.state.budgets).toEqual([]);
    const next = await createRepoHook(emulator, { config: { url: "https://example.com/new" } });
    expect(next.id).toBe(8);
    expect(fs.readFileSync(`${file}.schema-2.json`, "utf8")).toBe(text);
  });

  it.each([
    ["null", "null", /is not sandbox state of schema 2/],
    ["a hook map instead of a list", { ...freshState(), repoHooks: {} }, /repoHooks/],
    ["a counter that is not a number", { ...freshState(), nextId: "x" }, /nextId/],
    ["another schema", { schema: 99 }, /schema/],
    ["half a file", "{ half a file", /is not valid JSON/],
  ])("refuses %s, naming the file, and leaves it untouched", async (_, content, problem) => {
    const text = writeJson(content);
    const error = await startEmulator({ port: 0, data: file }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(problem);
    expect(error?.message.startsWith(`${file}: `)).toBe(true);
    expect(error?.message).not.toMatch(/\n/);
    expect(fs.readFileSync(file, "utf8")).toBe(text);
    expect(fs.readdirSync(join(file, ".."))).toEqual(["sandbox.db"]);
  });
});

describe("a data path that cannot be a store", () => {
  it.each([
    ["a folder", () => dir, /is a folder/],
    ["a file of something else", () => writeOther(), /is not a sandbox data file/],
    ["a path below /proc", () => "/proc/x/data.json", /cannot be created|cannot be opened/],
    ["an empty path", () => "", /the data file path is empty/],
  ])("refuses %s at once", async (_, path, problem) => {
    await expect(startEmulator({ port: 0, data: path() })).rejects.toThrow(problem);
  });

  function writeOther(): string {
    fs.mkdirSync(join(file, ".."), { recursive: true });
    fs.writeFileSync(file, "#!/bin/sh\necho not a store\n");
    return file;
  }
});

describe("without a data file", () => {
  it("writes no file, and a restart starts empty", async () => {
    const emulator = await start();
    await createRepoHook(emulator, { config: { url: "https://example.com/mem", secret: "x" } });
    await stop(emulator);
    const again = await start();
    expect((await call(again, "GET", HOOKS)).body).toEqual([]);
    expect(fs.existsSync(join(file, ".."))).toBe(false);
  });
});
