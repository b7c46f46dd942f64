/**
 * `npm run bench:sandbox`: what a create costs the sandbox server as its data grows. For each record
 * count N it starts a server with a data file, fills it with N repository webhooks (written straight
 * into the store, which is not what is measured), then times webhook creates through the API one
 * after another and prints the median latency and creates per second.
 *
 * Environment: BENCH_SANDBOX_N (default 100,5000,50000), BENCH_SANDBOX_SECONDS (default 3: how long
 * the creates run at each N; at least 5 creates are timed).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "../emulator/core/store";
import { newHook } from "../emulator/families/webhooks/hooks";
import type { StoredHook } from "../emulator/families/webhooks/state";
import { startEmulator } from "../emulator/index";
import { numbers } from "./bench/run";

const TOKEN = "svcp_siteadmin";
const HOOKS = "/repos/acme-eng/api/hooks";

function seedHook(store: Store, n: number): StoredHook {
  return newHook(store, {
    repo: "acme-eng/api",
    active: true,
    events: ["push"],
    config: { url: `https://seed.example.com/${n}`, content_type: "json", insecure_ssl: "0" },
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function measure(
  records: number,
  seconds: number,
): Promise<{ ms: number; perSecond: number; n: number }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
  try {
    const emulator = await startEmulator({ port: 0, data: join(dir, "sandbox.db") });
    try {
      const { store } = emulator;
      for (let i = 0; i < records; i++) store.state.repoHooks.push(seedHook(store, i));
      store.save();
      const latencies: number[] = [];
      const started = performance.now();
      for (let i = 0; latencies.length < 5 || performance.now() - started < seconds * 1000; i++) {
        const before = performance.now();
        const response = await fetch(`${emulator.url}${HOOKS}`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ config: { url: `https://bench.example.com/${i}` } }),
        });
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(`create answered ${response.status}`);
        latencies.push(performance.now() - before);
      }
      const total = performance.now() - started;
      return { ms: median(latencies), perSecond: (latencies.length / total) * 1000, n: latencies.length };
    } finally {
      await emulator.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SANDBOX_SECONDS ?? 3);
  console.log("records  creates  median ms  creates/s");
  for (const records of numbers("BENCH_SANDBOX_N", "100,5000,50000")) {
    const { ms, perSecond, n } = await measure(records, seconds);
    console.log(
      `${String(records).padStart(7)}  ${String(n).padStart(7)}  ${ms.toFixed(2).padStart(9)}  ${perSecond.toFixed(0).padStart(9)}`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
