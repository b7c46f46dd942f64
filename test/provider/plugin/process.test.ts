/**
 * The built `pulumi-resource-hosting` as the engine runs it: a process per provider, started with
 * the engine's address, whose first stdout line is its port. Two processes configured for two
 * sandbox servers each write to their own: the settings are per process, as each provider's are.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index";
import { PluginClient, secret } from "./helpers";

const ROOT = join(__dirname, "../../..");
const CLI = join(ROOT, "dist/provider/plugin/cli.js");
const HOOK = "hosting:index:RepositoryWebhook";

/** The newest TypeScript source the plugin is built from (everything under provider/). */
function newestSource(dir = join(ROOT, "provider")): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const children: ChildProcess[] = [];

/** Starts the plugin as the engine does and resolves with its first stdout line. */
async function startProcess(): Promise<{ child: ChildProcess; firstLine: string }> {
  const child = spawn(process.execPath, [CLI, "127.0.0.1:1"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const stdout = child.stdout;
  if (stdout === null) throw new Error("no stdout");
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    lines.once("line", (line) => {
      lines.close();
      resolve(line);
    });
    child.once("exit", (code) =>
      reject(new Error(`the plugin exited with ${code} before printing its port`)),
    );
  });
  return { child, firstLine };
}

const emulators: RunningEmulator[] = [];
beforeAll(async () => {
  if (!existsSync(CLI) || statSync(CLI).mtimeMs < newestSource()) {
    execFileSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: ROOT,
        stdio: "pipe",
      },
    );
  }
  emulators.push(await startEmulator({ port: 0 }), await startEmulator({ port: 0 }));
}, 180_000);
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(emulators.map((e) => e.close()));
});

async function hookUrls(emulator: RunningEmulator): Promise<string[]> {
  const response = await fetch(`${emulator.url}/repos/acme-eng/api/hooks`, {
    headers: { authorization: "Bearer svcp_siteadmin" },
  });
  return ((await response.json()) as Array<{ config: { url: string } }>).map((h) => h.config.url);
}

describe("the plugin process", () => {
  it("prints only its port first, and each process keeps its own provider's settings", async () => {
    const started = await Promise.all([startProcess(), startProcess()]);
    for (const { firstLine } of started) expect(firstLine).toMatch(/^\d+$/);
    const clients = started.map(({ firstLine }) => new PluginClient(Number(firstLine)));
    try {
      await Promise.all(
        clients.map((client, i) =>
          client.configure({ baseUrl: emulators[i]?.origin ?? "", token: secret("svcp_siteadmin") }, `p${i}`),
        ),
      );
      for (const [i, client] of clients.entries()) {
        const url = `https://ci.example.com/provider-${i}`;
        const checked = await client.check(HOOK, { owner: "acme-eng", repository: "api", url });
        await client.create(HOOK, checked.inputs);
      }
      expect(await hookUrls(emulators[0] as RunningEmulator)).toEqual(["https://ci.example.com/provider-0"]);
      expect(await hookUrls(emulators[1] as RunningEmulator)).toEqual(["https://ci.example.com/provider-1"]);
    } finally {
      for (const client of clients) client.close();
    }
  });
});
