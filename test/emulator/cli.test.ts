/**
 * The `hosting-emulator` command (DESIGN.md, The sandbox server): the built `dist/emulator/cli.js`
 * run with the current node. Its first stdout line is `listening on <apiRoot>`; SIGTERM stops it;
 * bad options exit 2.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCli, startCli, useBuiltCli } from "./cli-process";

useBuiltCli();

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolvePromise) =>
    child.once("exit", (code, signal) => resolvePromise({ code, signal })),
  );
}

/**
 * Runs the CLI to completion and returns its exit code and output. A CLI that starts listening
 * instead of failing is stopped with SIGTERM (and then exits 0).
 */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith("listening on ")) child.kill("SIGTERM");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return exited(child).then(({ code }) => ({ code, stdout, stderr }));
}

describe("hosting-emulator", () => {
  it("prints `listening on <apiRoot>` first, serves the API and stops on SIGTERM", async () => {
    const { child, firstLine } = await startCli(["--port", "0"]);
    expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    const apiRoot = firstLine.slice("listening on ".length);
    const port = Number(new URL(apiRoot).port);
    expect(port).toBeGreaterThan(0);

    const user = await fetch(`${apiRoot}/user`, { headers: { authorization: "Bearer svcp_siteadmin" } });
    expect(user.status).toBe(200);
    expect(((await user.json()) as { login: string }).login).toBe("admin");
    const anonymous = await fetch(`${apiRoot}/repos/acme-eng/api/hooks`);
    expect(anonymous.status).toBe(401);
    const health = await fetch(`${new URL(apiRoot).origin}/_emulator/health`);
    expect(await health.json()).toEqual({ ok: true });

    child.kill("SIGTERM");
    const { code, signal } = await exited(child);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    await expect(fetch(`${apiRoot}/user`)).rejects.toThrow();
  }, 30_000);

  it("keeps state in the --data file across runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hosting-emulator-cli-"));
    try {
      const data = join(dir, "state.json");
      const first = await startCli(["--port", "0", "--data", data]);
      const apiRoot = first.firstLine.slice("listening on ".length);
      const created = await fetch(`${apiRoot}/repos/acme-eng/api/hooks`, {
        method: "POST",
        headers: { authorization: "Bearer svcp_siteadmin", "content-type": "application/json" },
        body: JSON.stringify({ config: { url: "https://example.com/cli" } }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      first.child.kill("SIGTERM");
      expect((await exited(first.child)).code).toBe(0);

      const second = await startCli(["--port", "0", "--data", data]);
      const root2 = second.firstLine.slice("listening on ".length);
      const get = await fetch(`${root2}/repos/acme-eng/api/hooks/${id}`, {
        headers: { authorization: "Bearer svcp_siteadmin" },
      });
      expect(get.status).toBe(200);
      expect(((await get.json()) as { config: { url: string } }).config.url).toBe("https://example.com/cli");
      second.child.kill("SIGTERM");
      expect((await exited(second.child)).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it.each([["abc"], ["1.5"], ["-1"], ["70000"]])("exits 2 naming --port for --port=%s", async (value) => {
    const { code, stdout, stderr } = await runCli([`--port=${value}`]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("--port");
    expect(stderr).toContain(value);
    expect(stderr).toMatch(/usage: hosting-emulator/);
  });

  it("exits 2 naming --port when --port has no value", async () => {
    const { code, stderr } = await runCli(["--port"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--port");
  });

  // cli.ts converts the value with Number(), and Number("") is 0: an empty --port silently picks a
  // random port instead of being refused like any other value that is not an integer.
  it("exits 2 for an empty --port value", async () => {
    const { code, stdout } = await runCli(["--port="]);
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("exits 2 on an unknown option", async () => {
    const { code, stderr } = await runCli(["--bogus"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--bogus");
    expect(stderr).toMatch(/usage: hosting-emulator/);
  });

  it("prints the usage with --help and exits 0", async () => {
    const { code, stdout } = await runCli(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: hosting-emulator \[--port N\] \[--data FILE\]/);
  });
});
