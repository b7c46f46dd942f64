/**
 * The kinds' notices reach the engine's log under the resource being served: a plugin's stderr is
 * shown by the CLI only with `--debug`. A fake engine (the SDK's Engine service) collects them.
 */
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { emptyproto, grpc } from "../../../provider/plugin/proto";
import { type RunningPlugin, startPlugin } from "../../../provider/plugin/server";
import { api, useSandbox } from "../resources/helpers";
import { PluginClient, secret, urnOf } from "./helpers";

const HOOK = "hosting:index:RepositoryWebhook";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const logged: Array<{ urn: string; message: string }> = [];
let engine: InstanceType<typeof grpc.Server>;
let plugin: RunningPlugin;
let client: PluginClient;

beforeAll(async () => {
  engine = new grpc.Server();
  const service: Partial<engrpc.IEngineServer> = {
    log: (call, callback) => {
      const request: engproto.LogRequest = call.request;
      logged.push({ urn: request.getUrn(), message: request.getMessage() });
      callback(null, new emptyproto.Empty());
    },
  };
  engine.addService(engrpc.EngineService, service as engrpc.IEngineServer);
  const port = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  plugin = await startPlugin({ engine: `127.0.0.1:${port}` });
  client = new PluginClient(plugin.port);
});
afterAll(async () => {
  client.close();
  await plugin.close();
  engine.forceShutdown();
});

describe("notices", () => {
  it("an adoption that will change fields is logged under the resource being checked", async () => {
    await client.configure({ baseUrl: emulator.origin, token: secret("svcp_siteadmin") });
    const made = await api(emulator, "POST", "/repos/acme-eng/api/hooks", {
      name: "web",
      config: { url: "https://ci.example.com/old", content_type: "form" },
      events: ["push"],
    });
    const id = (made.body as { id: number }).id;
    const checked = await client.check(HOOK, {
      owner: "acme-eng",
      repository: "api",
      url: "https://ci.example.com/new",
      importId: String(id),
    });
    expect(checked.failures).toEqual([]);
    await expect.poll(() => logged.length).toBeGreaterThan(0);
    expect(logged[0]?.urn).toBe(urnOf(HOOK, "r"));
    expect(logged[0]?.message).toContain("adopting it will change");
    expect(logged[0]?.message).toContain("https://ci.example.com/new");
  });
});
