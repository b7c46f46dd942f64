/**
 * `startEmulator({ data })` keeps state in an SQLite file across restarts (emulator/core/store.ts,
 * emulator/core/database.ts): every request one transaction, nothing of a failed one applied, ids never
 * handed out twice; a JSON state file of schema 2 is migrated; a database of schema 2 (written
 * before the git, key, notification and security families) is upgraded with their seed; a file that
 * is no store is refused, untouched. Without `data` nothing is written. A server killed with SIGKILL
 * while it creates keeps every write it acknowledged and never hands an id out twice.
 */
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../api";
import type { Fixture } from "../../../emulator/core/fixture";
import { type EmulatorState, STATE_SCHEMA } from "../../../emulator/core/store";
import { defaultFixture, freshState } from "../../../emulator/families";
import { type RunningEmulator, startEmulator } from "../../../emulator/index";
import { startCli, useBuiltCli } from "../cli-process";
import {
  APP_USER_TOKEN,
  call,
  control,
  createGlobalHook,
  createRepoHook,
  type Json,
  MASK,
  TOKENS,
} from "../helpers";

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

/** The fixture keys, tokens and repositories the sandbox gained with schema 3. */
const SCHEMA_3_FIXTURE_KEYS = [
  "teams",
  "issues",
  "pullRequests",
  "dependencyAlerts",
  "dependencyGraph",
  "git",
  "userEmails",
  "notifications",
] as const;
/** The state collections the sandbox gained with schema 3 (rows, then maps). */
const SCHEMA_3_ROWS = [
  "gpgKeys",
  "sshKeys",
  "sshSigningKeys",
  "notificationThreads",
  "commits",
  "branches",
  "branchRedirects",
  "pullRequests",
  "dependencyAlerts",
  "dependencySnapshots",
  "securityManagers",
  "orgBlocks",
  "issueTypes",
  "issueFields",
];
const SCHEMA_3_MAPS = ["gitRepos", "statisticsCache"];

type Schema2State = Omit<Partial<EmulatorState>, "schema"> & { schema: number };

/**
 * A fixture as a file of schema 2 holds it: none of the keys above, no app user token, no
 * `acme-eng/empty`; and, as a file may, its own changes: olivia renamed, a token of its own, mona
 * gone (the upgrade adds users the file lacks; it keeps everything the file has).
 */
function schema2Fixture(): Fixture {
  const fixture = defaultFixture() as unknown as Record<string, unknown> & Fixture;
  for (const key of SCHEMA_3_FIXTURE_KEYS) delete fixture[key];
  delete fixture.tokens.svcu_user;
  fixture.repos = fixture.repos.filter((r) => r.name !== "empty");
  fixture.users = fixture.users
    .filter((u) => u.login !== "mona")
    .map((u) => (u.login === "olivia" ? { ...u, name: "Olivia Old" } : u));
  fixture.tokens.svcp_kept = { kind: "classic", user: "olivia", scopes: ["read:org"], permissions: {} };
  return fixture;
}

/** Checks what an upgrade of a schema-2 file gives: everything it had, and the new seed facts. */
async function expectUpgraded(emulator: RunningEmulator): Promise<void> {
  expect(emulator.store.state.schema).toBe(STATE_SCHEMA);
  // Kept: the file's own users and tokens, as they were.
  const olivia = await call(emulator, "GET", "/user", { token: "svcp_kept" });
  expect(olivia.body).toMatchObject({ login: "olivia", name: "Olivia Old" });
  // Added: what it lacked, by key.
  expect(emulator.store.state.fixture.users.map((u) => u.login)).toContain("mona");
  expect((await call(emulator, "GET", "/user", { token: APP_USER_TOKEN })).body.login).toBe("octocat");
  expect((await call(emulator, "GET", "/repos/acme-eng/empty")).status).toBe(200);
  // The new families start from the upgraded fixture's seed.
  const branch = await call(emulator, "GET", "/repos/acme-eng/api/branches/main");
  expect(branch.status).toBe(200);
  const alerts = await call(emulator, "GET", "/repos/acme-eng/api/depwatch/alerts");
  expect(alerts.body.map((a: Json) => a.number).sort()).toEqual([1, 2, 3]);
  const threads = await call(emulator, "GET", "/notifications?all=true", {
    headers: { "x-service-api-version": API_VERSION_2026 },
  });
  expect(threads.body.map((t: Json) => t.id).sort()).toEqual(["1", "2", "3"]);
  expect((await call(emulator, "GET", "/repos/acme-eng/api/pulls/7/requested_reviewers")).status).toBe(200);
}

/** A document of the (closed) data file. */
function storedDocument(name: string): unknown {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM documents WHERE name = ?").get(name) as { value: string };
    return JSON.parse(row.value);
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

  /** A state as a schema-2 JSON file holds it. */
  function schema2State(): Schema2State {
    const state: Schema2State = { ...freshState(schema2Fixture()), schema: 2 };
    for (const key of [...SCHEMA_3_ROWS, ...SCHEMA_3_MAPS]) delete state[key as keyof Schema2State];
    return state;
  }

  it("is migrated on first open, kept beside it, and its ids are never handed out again", async () => {
    const state = schema2State();
    state.nextId = 3;
    state.repoHooks?.push({
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
    await expectUpgraded(emulator);
  });

  it.each([
    ["null", "null", /is not sandbox state of schema 2/],
    ["a hook map instead of a list", { ...freshState(), schema: 2, repoHooks: {} }, /repoHooks/],
    ["a counter that is not a number", { ...freshState(), schema: 2, nextId: "x" }, /nextId/],
    ["another schema", { schema: 99 }, /schema/],
    ["a file of the current schema (no version wrote JSON of it)", { ...freshState() }, /schema 2: schema/],
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

describe("a database of schema 2", () => {
  /**
   * Makes the data file a version before schema 3 would have written: a server writes it with a
   * hook, then the schema, the fixture and the collections of schema 3 are put back as they were.
   */
  async function writeSchema2Database(): Promise<number> {
    const first = await start(file);
    const hook = await createRepoHook(first, { config: { url: "https://example.com/schema-2" } });
    await stop(first);
    const db = new DatabaseSync(file);
    try {
      const put = db.prepare("UPDATE documents SET value = ? WHERE name = ?");
      put.run("2", "schema");
      put.run(JSON.stringify(schema2Fixture()), "fixture");
      for (const collection of SCHEMA_3_ROWS)
        db.prepare("DELETE FROM rows WHERE collection = ?").run(collection);
      for (const collection of SCHEMA_3_MAPS)
        db.prepare("DELETE FROM entries WHERE collection = ?").run(collection);
    } finally {
      db.close();
    }
    return hook.id;
  }

  it("is upgraded on open: everything it holds kept, the new fixture facts and collections added", async () => {
    const hookId = await writeSchema2Database();
    const emulator = await start(file);
    expect((await call(emulator, "GET", HOOKS)).body.map((h: Json) => h.id)).toEqual([hookId]);
    await expectUpgraded(emulator);
    const next = await createRepoHook(emulator, { config: { url: "https://example.com/after" } });
    expect(next.id).toBeGreaterThan(hookId);
    const head = (await call(emulator, "GET", "/repos/acme-eng/api/branches/main")).body.commit.sha;
    await stop(emulator);

    // Written whole as schema 3 at once: a restart reads it as it is, the seeded git data included.
    expect(storedDocument("schema")).toBe(STATE_SCHEMA);
    expect(storedRows("commits").length).toBeGreaterThan(0);
    const again = await start(file);
    expect((await call(again, "GET", "/repos/acme-eng/api/branches/main")).body.commit.sha).toBe(head);
    expect((await call(again, "GET", "/user", { token: "svcp_kept" })).body.name).toBe("Olivia Old");
    expect((await call(again, "GET", HOOKS)).body.map((h: Json) => h.id)).toEqual([hookId, next.id]);
  });

  it("keeps the users and tokens it has as they are; a user whose id is taken, and their tokens, are not added", async () => {
    await writeSchema2Database();
    const db = new DatabaseSync(file);
    try {
      const fixture = schema2Fixture();
      // The file's user 3 is not octocat: octocat (id 3) cannot be added, nor his app user token.
      fixture.users = fixture.users.map((u) => (u.login === "octocat" ? { ...u, login: "octo-old" } : u));
      fixture.tokens.svcp_member = { kind: "classic", user: "olivia", scopes: [], permissions: {} };
      db.prepare("UPDATE documents SET value = ? WHERE name = 'fixture'").run(JSON.stringify(fixture));
    } finally {
      db.close();
    }
    const emulator = await start(file);
    const logins = emulator.store.state.fixture.users.map((u) => u.login);
    expect(logins).toContain("octo-old");
    expect(logins).not.toContain("octocat");
    expect(logins).toContain("mona");
    expect(emulator.store.state.fixture.tokens.svcp_member).toEqual({
      kind: "classic",
      user: "olivia",
      scopes: [],
      permissions: {},
    });
    expect((await call(emulator, "GET", "/user", { token: TOKENS.member })).body.login).toBe("olivia");
    expect((await call(emulator, "GET", "/user", { token: APP_USER_TOKEN })).status).toBe(401);
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

describe("a server killed with SIGKILL while it creates", () => {
  useBuiltCli();

  /** The CLI's server on the test's data file (each restart the same file). */
  async function startServer(): Promise<{ child: ChildProcess; url: string }> {
    const { child, firstLine } = await startCli(["--data", file]);
    return { child, url: firstLine.slice("listening on ".length) };
  }

  it("keeps every acknowledged create and never hands an id out twice, over 20 kills", async () => {
    const acknowledged = new Map<number, string>();
    for (let round = 0; round < 20; round++) {
      const { child, url } = await startServer();
      const exited = new Promise((r) => child.once("exit", r));
      let stop = false;
      const writer = async (lane: number) => {
        for (let i = 0; !stop; i++) {
          const hookUrl = `https://kill.example.com/${round}/${lane}/${i}`;
          try {
            const response = await fetch(`${url}${HOOKS}`, {
              method: "POST",
              headers: { authorization: `Bearer ${TOKENS.siteAdmin}`, "content-type": "application/json" },
              body: JSON.stringify({ config: { url: hookUrl } }),
            });
            if (response.status !== 201) continue;
            const { id } = (await response.json()) as { id: number };
            expect(acknowledged.has(id), `id ${id} handed out twice`).toBe(false);
            acknowledged.set(id, hookUrl);
          } catch {
            return; // the server is gone
          }
        }
      };
      const lanes = [0, 1, 2, 3].map(writer);
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 150));
      child.kill("SIGKILL");
      stop = true;
      await Promise.all(lanes);
      await exited;
    }
    const { child, url } = await startServer();
    try {
      const kept = new Map<number, string>();
      for (let page = 1; ; page++) {
        const response = await fetch(`${url}${HOOKS}?per_page=100&page=${page}`, {
          headers: { authorization: `Bearer ${TOKENS.siteAdmin}` },
        });
        const hooks = (await response.json()) as Array<{ id: number; config: { url: string } }>;
        for (const hook of hooks) kept.set(hook.id, hook.config.url);
        if (hooks.length < 100) break;
      }
      expect(acknowledged.size).toBeGreaterThan(20);
      for (const [id, hookUrl] of acknowledged) expect(kept.get(id), `hook ${id}`).toBe(hookUrl);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});
