/**
 * Installing it for real, as the README tells a new user: from a git URL (here a local bare clone
 * of this repository), with `prepare` building the library, then `npx hosting-emulator` from the
 * installed package and `pulumi up` of the demo's resources with the lowest supported
 * @pulumi/pulumi, the drift check passing and then naming a change, and destroy. Also: what a
 * published package would hold. (The newest @pulumi/pulumi runs every other end-to-end program.)
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TRANSPILE_ONLY } from "../../fleet/typecheck";
import { PulumiProgram, ROOT, requirePulumi, temporaryFolder } from "./pulumi";

/** The lowest @pulumi/pulumi the peer range admits; tested beside the newest. */
const LOWEST_PULUMI = "3.216.0";

/**
 * The TypeScript the demo compiles with (the program's own, as the README's examples have it):
 * @pulumi/pulumi 3.216 accepts TypeScript below 6 for a TypeScript program (its peer range), so the
 * newest 5.x, as a team on that SDK has it.
 */
const TYPESCRIPT = "^5.9.3";

/**
 * Makes the program the demo itself: the root index.ts and the examples it declares, in TypeScript,
 * importing the library by name as a user's program does.
 */
function useDemoProgram(dir: string): void {
  cpSync(join(ROOT, "index.ts"), join(dir, "index.ts"));
  cpSync(join(ROOT, "examples"), join(dir, "examples"), {
    recursive: true,
    filter: (source) => !source.includes("node_modules") && !source.endsWith("package.json"),
  });
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    "name: git-install\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        module: "node16",
        moduleResolution: "node16",
        strict: true,
        skipLibCheck: true,
      },
      files: ["index.ts"],
    }),
  );
}

function hostingResources(program: PulumiProgram) {
  return program.resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/hosting:"));
}

const children: ChildProcess[] = [];

/**
 * Stops a server started with `npx` and everything under it: `npx` runs the server as its child,
 * so killing `npx` alone would leave the server running. It runs in its own process group, which
 * is signalled as a whole.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  signalGroup(pid, "SIGTERM");
  // The server closes its connections and exits; one that does not within 5 s is killed.
  for (let waited = 0; groupAlive(pid) && waited < 5_000; waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Whether any process of the group is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  await Promise.all(children.map(stopGroup));
});

/** Starts `npx hosting-emulator --port 0` in the program's folder; resolves to its origin. */
function startInstalledEmulator(dir: string): Promise<{ origin: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["--no-install", "hosting-emulator", "--port", "0"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    children.push(child);
    let out = "";
    const timer = setTimeout(() => reject(new Error(`hosting-emulator did not start:\n${out}`)), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on (http:\/\/\S+)\/api\/v3$/m.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ origin: match[1], child });
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`hosting-emulator exited ${code}:\n${out}`)));
  });
}

describe("installing pulumi-hosting", () => {
  it("packs only the built library, its sandbox server, import and fleet commands, the schema, the Python and Go SDKs, README and CHANGELOG", () => {
    const [report] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const paths = (report?.files ?? []).map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(["package.json", "README.md", "CHANGELOG.md", "schema.json"]),
    );
    expect(paths).toContain("dist/provider/kinds/repository-webhook.js");
    expect(paths).toContain("dist/emulator/cli.js");
    expect(paths).toContain("dist/importer/cli.js");
    expect(paths).toContain("dist/fleet/cli.js");
    expect(paths).toContain("sdk/python/setup.py");
    expect(paths).toContain("sdk/go/hosting/repositoryWebhook.go");
    const unexpected = paths.filter(
      (p) =>
        !/^dist\/(api|provider|emulator|importer|fleet)\/.+\.(js|d\.ts|js\.map)$/.test(p) &&
        // The SDKs as generated: no build output, caches or compiled files.
        !/^sdk\/python\/(setup\.py|\.gitattributes|pulumi_hosting\/.+\.(py|pyi|json|typed|md))$/.test(p) &&
        !/^sdk\/go\/(go\.mod|\.gitattributes|hosting\/.+\.(go|json))$/.test(p) &&
        !["package.json", "README.md", "CHANGELOG.md", "schema.json"].includes(p),
    );
    expect(unexpected).toEqual([]);
  });

  it(`from a git URL: prepare builds it, npx hosting-emulator serves, the demo's resources converge with @pulumi/pulumi ${LOWEST_PULUMI}, drift is named, destroy`, async () => {
    requirePulumi();
    const repo = join(temporaryFolder("hosting-git-"), "pulumi-hosting.git");
    execFileSync("git", ["clone", "--quiet", "--bare", ROOT, repo]);
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const program = new PulumiProgram("git-install", "", {
      library: { git: `git+file://${repo}#${commit}` },
      // The lowest @pulumi/pulumi the peer range admits, on the program of every kind: one install
      // and one set of runs covers both.
      pulumiVersion: LOWEST_PULUMI,
      devDependencies: { typescript: TYPESCRIPT },
    });
    useDemoProgram(program.dir);
    expect(program.node('console.log(require("@pulumi/pulumi/package.json").version)').trim()).toBe(
      LOWEST_PULUMI,
    );

    const installed = join(program.dir, "node_modules/pulumi-hosting");
    expect(existsSync(join(installed, "dist/provider/index.js"))).toBe(true);
    expect(existsSync(join(installed, "provider"))).toBe(false);
    expect(existsSync(join(installed, "test"))).toBe(false);

    const { origin, child } = await startInstalledEmulator(program.dir);
    await program.initStackFromEnvironment(origin, "svcp_siteadmin");
    const up = await program.ok("up", "--yes", "--skip-preview");
    const created = Number(/\+ (\d+) created/.exec(up.output)?.[1]);
    // Every resource of the demo, and the stack.
    expect(created).toBe(hostingResources(program).length + 1);
    // The demo declares every kind.
    const { PROVIDERS } = require(join(ROOT, "dist/provider/providers.js")) as {
      PROVIDERS: Array<{ kind: string }>;
    };
    const kinds = new Set(
      hostingResources(program).map((r) => r.type.replace("pulumi-nodejs:dynamic/hosting:", "")),
    );
    expect([...kinds].sort()).toEqual(PROVIDERS.map((p) => p.kind).sort());
    expect(up.output).not.toMatch(/warning: using pulumi-resource-pulumi-nodejs/);
    for (const r of hostingResources(program)) {
      expect(String(r.outputs?.__provider)).toContain('require("pulumi-hosting/kinds/');
      // Where the program declared it (the demo declares them in its examples), not a line of the
      // installed library.
      // (A resource declared where an output resolves has none: the engine records no position.)
      if (r.sourcePosition !== undefined) {
        expect(r.sourcePosition).toMatch(/^project:\/\/\/examples\/[a-z-]+\/[a-z-]+\.ts#\d+,\d+$/);
      }
    }

    // ts-node type-checked the demo against the lowest SDK in that up; the drift check below
    // compiles the same files without checking them again (about 2.5 CPU-s).
    program.setEnv({ ...TRANSPILE_ONLY });

    // A change made outside Pulumi: the drift check (the program run against the refreshed state)
    // names it (the refresh shows the server's value, and the program updates it back) and nothing
    // else: with the lowest SDK the program converges on every other object.
    const hook = hostingResources(program).find((r) => r.type.endsWith(":RepositoryWebhook"))?.outputs ?? {};
    const changed = await fetch(
      `${origin}/api/v3/repos/${hook.owner}/${hook.repository}/hooks/${hook.hookId}`,
      {
        method: "PATCH",
        headers: { authorization: "Bearer svcp_siteadmin", "content-type": "application/json" },
        body: JSON.stringify({ active: false }),
      },
    );
    expect(changed.status, await changed.text()).toBe(200);
    const changedOutside = await program.run(
      "preview",
      "--refresh",
      "--run-program",
      "--expect-no-changes",
      "--diff",
    );
    expect(changedOutside.code).not.toBe(0);
    expect(changedOutside.output).toMatch(/active\s*:\s*true\s*=>\s*false/);
    expect(changedOutside.output).toMatch(/RepositoryWebhook: \(update\)/);
    expect(changedOutside.output).toMatch(/~ 1 to update/);
    expect(changedOutside.output).not.toMatch(/to (create|delete|replace)/);
    await program.ok("destroy", "--yes", "--skip-preview");
    expect(hostingResources(program)).toEqual([]);

    // Stopping it stops the server under npx too: nothing of the group is left running.
    const pid = child.pid ?? 0;
    expect(groupAlive(pid)).toBe(true);
    signalGroup(pid, "SIGTERM");
    for (let waited = 0; groupAlive(pid) && waited < 10_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(groupAlive(pid), "a process of npx hosting-emulator outlived SIGTERM by 10 s").toBe(false);
  });
});
