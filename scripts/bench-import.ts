/**
 * `npm run bench:import`: how hosting-import scales. For each count N it fills a sandbox server
 * through its API with N objects (repository webhooks over the fixture's three repositories, and one
 * organisation runner group in ten), runs the import in this process with `--format json`, and
 * prints the time and the API requests discovery made, and both per object.
 *
 * Environment: BENCH_IMPORT_N (default 100,1000,3000), BENCH_LATENCY_MS (default 0: latency the
 * sandbox server adds to every request).
 */
import { startEmulator } from "../emulator/index";
import { run } from "../importer/run";
import { numbers } from "./bench/run";

const REPOS = ["acme-eng/api", "acme-eng/web", "acme-ops/infra"];
const TOKEN = "svcp_siteadmin";

async function fill(url: string, n: number): Promise<void> {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  const groups = Math.floor(n / 10);
  const writes: Array<() => Promise<void>> = [];
  for (let i = 0; i < n - groups; i++) {
    const repo = REPOS[i % REPOS.length];
    writes.push(() =>
      call("POST", `/repos/${repo}/hooks`, { config: { url: `https://hooks.example.com/${i}` } }),
    );
  }
  for (let i = 0; i < groups; i++) {
    const org = i % 2 === 0 ? "acme-eng" : "acme-ops";
    writes.push(() =>
      call("POST", `/orgs/${org}/actions/runner-groups`, { name: `group ${i}`, visibility: "all" }),
    );
  }
  for (let i = 0; i < writes.length; i += 32) await Promise.all(writes.slice(i, i + 32).map((w) => w()));
}

async function main(): Promise<void> {
  const latency = numbers("BENCH_LATENCY_MS", "0")[0] ?? 0;
  console.log(`hosting-import: objects, seconds, requests (latency ${latency} ms per request)`);
  console.log("N\tobjects\tseconds\trequests\trequests/object\tms/object");
  for (const n of numbers("BENCH_IMPORT_N", "100,1000,3000")) {
    const emulator = await startEmulator({ port: 0 });
    try {
      await fill(emulator.url, n);
      if (latency > 0)
        emulator.controls.addFault({ path: "*", latencyMs: latency, when: "before", remaining: 1e9 });
      let json = "";
      let summary = "";
      const started = process.hrtime.bigint();
      const code = await run(["--org", "acme-eng", "--org", "acme-ops", "--format", "json"], {
        env: { ...process.env, HOSTING_BASE_URL: emulator.origin, HOSTING_TOKEN: TOKEN },
        out: (text) => {
          json += text;
        },
        err: (line) => {
          if (line.startsWith("read ")) summary = line;
        },
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) throw new Error(`hosting-import exited ${code}`);
      const objects = (JSON.parse(json) as { items: unknown[] }).items.length;
      const requests = Number(/with (\d+) requests/.exec(summary)?.[1] ?? Number.NaN);
      console.log(
        [
          n,
          objects,
          seconds.toFixed(2),
          requests,
          (requests / objects).toFixed(2),
          ((seconds * 1000) / objects).toFixed(2),
        ].join("\t"),
      );
    } finally {
      await emulator.close();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
