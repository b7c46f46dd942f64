/**
 * `npm run bench`: request counts, timings and memory of the provider against the sandbox server,
 * with 20 ms of injected latency per request so concurrency shows as it would on a real network.
 * Prints figures; asserts nothing (targets are read from the output, not enforced by tests).
 */
import { startEmulator } from "../emulator/index";
import { HostingClient } from "../provider/client/http";
import { configure } from "../provider/internal/context";
import {
  repositoryWebhookProvider as provider,
  type RepositoryWebhookInputs,
} from "../provider/resources/webhooks";

const HOOKS = Number(process.env.BENCH_HOOKS ?? 200);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  const settings = { "hosting:baseUrl": emulator.origin, "hosting:token": "svcp_siteadmin" } as Record<
    string,
    string
  >;
  configure({ get: (k) => settings[k] });
  const rows: Array<[string, string]> = [];
  const latency = async () => {
    const response = await fetch(`${emulator.origin}/_emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ path: "/*", latencyMs: LATENCY_MS, count: 1_000_000 }),
    });
    if (response.status !== 201) throw new Error(`could not inject latency: ${await response.text()}`);
  };
  const measure = async (label: string, run: () => Promise<unknown>) => {
    emulator.controls.clearLog();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    await run();
    const ms = performance.now() - started;
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    rows.push([
      label,
      `${emulator.controls.counts().total} requests, ${ms.toFixed(0)} ms, heap ${heapMb >= 0 ? "+" : ""}${heapMb.toFixed(1)} MB`,
    ]);
  };

  await latency();
  const inputs = (i: number): RepositoryWebhookInputs => ({
    owner: "acme-eng",
    repository: "api",
    url: `https://ci.example.com/hook/${i}`,
    contentType: "json",
    secret: `secret-${i}`,
    insecureSsl: false,
    active: true,
    events: ["push", "pull_request"],
  });

  const created: Array<{ id: string; outs: Awaited<ReturnType<typeof provider.create>>["outs"] }> = [];
  await measure(`create ${HOOKS} webhooks (parallel, as the engine runs them)`, async () => {
    created.push(...(await Promise.all(Array.from({ length: HOOKS }, (_, i) => provider.create(inputs(i))))));
  });
  await measure(`refresh ${HOOKS} webhooks (read each)`, () =>
    Promise.all(created.map((c) => provider.read(c.id, c.outs))),
  );
  await measure(`diff ${HOOKS} webhooks (no request)`, () =>
    Promise.all(created.map((c) => provider.diff(c.id, c.outs, inputs(Number(c.outs.url.split("/").pop()))))),
  );
  const client = new HostingClient({ apiRoot: emulator.url, token: "svcp_siteadmin", apiVersion: undefined });
  await measure(`list ${HOOKS} webhooks (per_page=100, Link pagination)`, () =>
    client.paginate("/repos/acme-eng/api/hooks"),
  );
  await measure(`delete ${HOOKS} webhooks (parallel)`, () =>
    Promise.all(created.map((c) => provider.delete(c.id, c.outs))),
  );

  const fixedPolicy = HOOKS * 1_000;
  console.log(`pulumi-hosting bench: ${HOOKS} repository webhooks, ${LATENCY_MS} ms latency per request\n`);
  for (const [label, figure] of rows) console.log(`${label.padEnd(58)} ${figure}`);
  console.log(
    `\nfor comparison, a fixed one-write-per-second policy needs ${(fixedPolicy / 1000).toFixed(0)} s for the creates alone`,
  );
  console.log(`process rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
  await emulator.close();
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
