/**
 * The plugin writes Node's compile cache once it listens: the engine kills plugin processes at the
 * end of a command, so a cache left to be written at exit would never be.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, expect, it } from "vitest";

const CLI = resolve(__dirname, "../../../dist/provider/plugin/cli.js");
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

it("writes the compile cache of its modules while it runs, before the engine kills it", async () => {
  const cache = mkdtempSync(join(tmpdir(), "hosting-compile-cache-"));
  folders.push(cache);
  const child = spawn(process.execPath, [CLI], {
    env: { ...process.env, NODE_COMPILE_CACHE: cache },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<string>((done) =>
      child.stdout.once("data", (d: Buffer) => done(String(d))),
    );
    expect(port).toMatch(/^\d+\n$/);
    // The flush follows the port line; the process is still running (nothing else ends it).
    for (let waited = 0; files(cache).length === 0 && waited < 5_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(child.exitCode).toBeNull();
    expect(files(cache).length).toBeGreaterThan(0);
  } finally {
    child.kill("SIGKILL");
  }
});
