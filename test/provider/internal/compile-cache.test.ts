/**
 * Node's compile cache in the processes the engine starts and kills at the end of each command: the
 * plugin writes it once it listens, a dynamic provider process once a call loaded the library's
 * modules. A cache left to be written at exit would never be.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, expect, it } from "vitest";

const DIST = resolve(__dirname, "../../../dist/provider");
const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/** Starts `args` under Node with a new cache folder; resolves with it and the first stdout chunk. */
async function started(args: string[]): Promise<{ cache: string; child: ChildProcess; first: string }> {
  const cache = mkdtempSync(join(tmpdir(), "hosting-compile-cache-"));
  folders.push(cache);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_COMPILE_CACHE: cache },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const first = await new Promise<string>((done) =>
    child.stdout?.once("data", (d: Buffer) => done(String(d))),
  );
  return { cache, child, first };
}

/** Waits up to 5 s for the cache to hold files; the process is still running. */
async function cached(cache: string, child: ChildProcess): Promise<string[]> {
  for (let waited = 0; files(cache).length === 0 && waited < 5_000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(child.exitCode).toBeNull();
  return files(cache);
}

it("the plugin writes the compile cache of its modules while it runs, before the engine kills it", async () => {
  const { cache, child, first } = await started([join(DIST, "plugin/cli.js")]);
  expect(first).toMatch(/^\d+\n$/);
  // The flush follows the port line; the process is still running (nothing else ends it).
  expect((await cached(cache, child)).length).toBeGreaterThan(0);
});

it("a dynamic provider process writes it after the first call that loaded the library, then only when more loaded", async () => {
  // What the engine's dynamic provider host does with a serialised provider: `require` the kind's
  // module and call it; then the process stays until the engine kills it.
  const script = `
    const provider = require(${JSON.stringify(join(DIST, "kinds/budget.js"))});
    const count = () => require("node:fs").readdirSync(process.env.NODE_COMPILE_CACHE, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    (async () => {
      const before = count();
      await provider.configure({ config: new Map() });
      const afterFirst = count();
      await provider.configure({ config: new Map() });
      console.log(JSON.stringify({ before, afterFirst, afterSecond: count() }));
    })();
    setInterval(() => {}, 1000);
  `;
  const { cache, child, first } = await started(["-e", script]);
  const counts = JSON.parse(first) as { before: number; afterFirst: number; afterSecond: number };
  expect(counts.before).toBe(0);
  expect(counts.afterFirst).toBeGreaterThan(0);
  // Nothing loaded by the second call: no second write.
  expect(counts.afterSecond).toBe(counts.afterFirst);
  expect((await cached(cache, child)).length).toBe(counts.afterFirst);
});
