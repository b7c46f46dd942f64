/**
 * The four Pulumi programs the bench drives, all JavaScript run by the same Node.js language host:
 * the library's dynamic resources in a fixed mix, the dynamic floor (the same number of no-op
 * dynamic resources with the same inputs), the same resources through the native plugin
 * `pulumi-resource-hosting`, and the native floor (a no-op provider plugin, written here and served
 * the way the real plugin is). All read the count from stack config (`bench:n`) and share one
 * generator (`mix.js`), so they differ only in the provider.
 */

/** The resource mix, written into both programs. */
export const MIX_JS = `/** The resources of one bench stack: the same specs for the library and for the floor. */
const REPOS = [
  ["acme-eng", "api"],
  ["acme-eng", "api"],
  ["acme-eng", "api"],
  ["acme-eng", "web"],
  ["acme-ops", "infra"],
];

// BENCH_MIX=hooks: every resource a webhook of one repository (the collection-read case).
const HOOKS_ONLY = process.env.BENCH_MIX === "hooks";

exports.mix = function mix(n) {
  const specs = [];
  for (let i = 0; i < n; i++) {
    if (HOOKS_ONLY) {
      specs.push({
        key: "r" + i,
        family: "RepositoryWebhook",
        args: {
          owner: "acme-eng",
          repository: "api",
          url: "https://ci.example.com/hooks/" + i,
          contentType: "json",
          secret: "secret-" + i,
          events: ["push", "pull_request"],
        },
      });
      continue;
    }
    const block = Math.floor(i / 10);
    const slot = i % 10;
    const key = "r" + i;
    if (slot < 5) {
      const [owner, repository] = REPOS[slot];
      specs.push({
        key,
        family: "RepositoryWebhook",
        args: {
          owner,
          repository,
          url: "https://ci.example.com/hooks/" + i,
          contentType: "json",
          secret: "secret-" + i,
          events: ["push", "pull_request"],
        },
      });
    } else if (slot === 6 && block === 0 && n > 7) {
      // The runners of the first acme-eng group (r7): a runner is in exactly one group.
      specs.push({ key, family: "RunnerGroupRunners", ref: "r7", args: { org: "acme-eng", runners: [1, 2] } });
    } else if (slot === 6 && block === 1) {
      specs.push({ key, family: "OrgMembership", args: { org: "acme-eng", username: "mona", role: "member" } });
    } else if (slot < 7) {
      specs.push({
        key,
        family: "GlobalWebhook",
        args: { url: "https://audit.example.com/hooks/" + i, events: ["organization", "user", "repository"] },
      });
    } else if (slot < 9) {
      specs.push({
        key,
        family: "OrgRunnerGroup",
        args: { org: slot === 7 ? "acme-eng" : "acme-ops", name: "bench-" + i, visibility: "all" },
      });
    } else {
      specs.push({ key, family: "EnterpriseRunnerGroup", args: { enterprise: "acme", name: "bench-" + i, visibility: "all" } });
    }
  }
  return specs;
};
`;

/** Whether BENCH_MIX asks for webhooks of one repository only (read by the programs too). */
export const HOOKS_ONLY = process.env.BENCH_MIX === "hooks";

export const HOOKS_DESCRIPTION =
  "BENCH_MIX=hooks: every resource a RepositoryWebhook of acme-eng/api (distinct URLs, json, a secret, 2 events)";

export const MIX_DESCRIPTION = [
  "per 10 resources: 5 RepositoryWebhook (3 on acme-eng/api, 1 acme-eng/web, 1 acme-ops/infra; distinct",
  "URLs, json, a secret, 2 events), 2 GlobalWebhook (distinct URLs), 2 OrgRunnerGroup (acme-eng and",
  "acme-ops, unique names), 1 EnterpriseRunnerGroup (acme, unique name). Of the GlobalWebhook slots, the",
  "first block's is a RunnerGroupRunners (runners 1,2 into the first acme-eng group, which it depends on)",
  "and the second block's an OrgMembership (mona invited to acme-eng as member): the fixture has few",
  "runners and people, so those two families appear once.",
].join("\n");

/** How many resources of each family a stack of n declares (mirrors `MIX_JS`). */
export function mixCounts(n: number): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (family: string) => {
    counts[family] = (counts[family] ?? 0) + 1;
  };
  for (let i = 0; i < n; i++) {
    const block = Math.floor(i / 10);
    const slot = i % 10;
    if (HOOKS_ONLY || slot < 5) add("RepositoryWebhook");
    else if (slot === 6 && block === 0 && n > 7) add("RunnerGroupRunners");
    else if (slot === 6 && block === 1) add("OrgMembership");
    else if (slot < 7) add("GlobalWebhook");
    else if (slot < 9) add("OrgRunnerGroup");
    else add("EnterpriseRunnerGroup");
  }
  return counts;
}

export const OURS_JS = `const pulumi = require("@pulumi/pulumi");
const hosting = require("pulumi-hosting");
const { mix } = require("./mix");

const specs = mix(new pulumi.Config("bench").requireNumber("n"));
const made = new Map();
for (const s of specs.filter((s) => !s.ref)) made.set(s.key, new hosting[s.family](s.key, s.args));
for (const s of specs.filter((s) => s.ref)) {
  new hosting[s.family](s.key, { ...s.args, runnerGroupId: made.get(s.ref).runnerGroupId });
}
`;

/**
 * The floor: what any dynamic resource costs in this CLI and SDK. The provider is written inline,
 * as users write theirs, so the closure serialiser stores its code in state.
 */
export const FLOOR_JS = `const pulumi = require("@pulumi/pulumi");
const { mix } = require("./mix");

const noop = {
  async create(inputs) {
    return { id: inputs.key, outs: inputs };
  },
  async diff() {
    return { changes: false };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};

const specs = mix(new pulumi.Config("bench").requireNumber("n"));
const made = new Map();
const declare = (s, extra) => {
  const props = { key: s.key, ...s.args, ...extra };
  if (props.secret !== undefined) props.secret = pulumi.secret(props.secret);
  return new pulumi.dynamic.Resource(noop, s.key, props, undefined, "floor", s.family);
};
for (const s of specs.filter((s) => !s.ref)) made.set(s.key, declare(s, {}));
for (const s of specs.filter((s) => s.ref)) declare(s, { runnerGroupId: made.get(s.ref).id });
`;

/** The native plugin's package name: its resources are `hosting:index:<Kind>`. */
export const PLUGIN_PACKAGE = "hosting";

/** The native floor's package name: resources `benchfloor:index:<Kind>`, plugin `pulumi-resource-benchfloor`. */
export const NATIVE_FLOOR_PACKAGE = "benchfloor";

/**
 * The plugin's program and the native floor's: the same specs as `pulumi.CustomResource`s of
 * `<pkg>:index:<Kind>`, the secret marked secret by the program (no generated SDK runs here, so
 * both floors and the plugin see the same inputs). The group a RunnerGroupRunners names is
 * declared with the output `runnerGroupId` (undefined in props: read back); the native floor
 * leaves it unset.
 */
export function customResourceJs(pkg: string): string {
  return `const pulumi = require("@pulumi/pulumi");
const { mix } = require("./mix");

const specs = mix(new pulumi.Config("bench").requireNumber("n"));
const referenced = new Set(specs.filter((s) => s.ref).map((s) => s.ref));
const made = new Map();
const declare = (s, extra) => {
  const props = { ...s.args, ...extra };
  if (props.secret !== undefined) props.secret = pulumi.secret(props.secret);
  if (referenced.has(s.key)) props.runnerGroupId = undefined;
  return new pulumi.CustomResource("${pkg}:index:" + s.family, s.key, props);
};
for (const s of specs.filter((s) => !s.ref)) made.set(s.key, declare(s, {}));
for (const s of specs.filter((s) => s.ref)) declare(s, { runnerGroupId: made.get(s.ref).runnerGroupId });
`;
}

/**
 * The native floor: a provider plugin that answers without work, served as
 * `pulumi-resource-hosting` is (the SDK's generated ResourceProvider service on `@grpc/grpc-js`,
 * both loaded through `@pulumi/pulumi`, the same server options, the port on the first stdout
 * line, Handshake unimplemented, Configure answering the same flags). Check returns the news, Diff
 * says no change, Create returns its inputs with the resource's name as id, Read the recorded
 * properties and inputs, Update the news, Delete nothing: every payload goes back as the engine
 * sent it, without converting it. Written into the bench's temporary folder, never shipped.
 */
export const NATIVE_FLOOR_PLUGIN_JS = `#!/usr/bin/env node
"use strict";
const { createRequire } = require("node:module");
const fromSdk = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = fromSdk("@grpc/grpc-js");
const emptyproto = fromSdk("google-protobuf/google/protobuf/empty_pb");
const plugproto = require("@pulumi/pulumi/proto/plugin_pb");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");

const token = (kind) => "${NATIVE_FLOOR_PACKAGE}:index:" + kind;
const SCHEMA = JSON.stringify({
  name: "${NATIVE_FLOOR_PACKAGE}",
  version: "0.0.1",
  resources: {
    [token("RepositoryWebhook")]: {
      inputProperties: { owner: { type: "string" }, repository: { type: "string" }, url: { type: "string" } },
      properties: { owner: { type: "string" }, repository: { type: "string" }, url: { type: "string" } },
    },
  },
});

const answer = (make) => (call, callback) => callback(null, make(call.request));
const unimplemented = (name) => (_call, callback) =>
  callback({ code: grpc.status.UNIMPLEMENTED, details: name + " is not implemented by the native floor" });
const noChange = () => new provproto.DiffResponse().setChanges(provproto.DiffResponse.DiffChanges.DIFF_NONE);
const nameOf = (urn) => urn.slice(urn.lastIndexOf("::") + 2);

const server = new grpc.Server({
  "grpc.max_receive_message_length": 400 * 1024 * 1024,
  "grpc.max_send_message_length": 400 * 1024 * 1024,
});
server.addService(provrpc.ResourceProviderService, {
  handshake: unimplemented("Handshake"),
  parameterize: unimplemented("Parameterize"),
  construct: unimplemented("Construct"),
  call: unimplemented("Call"),
  invoke: unimplemented("Invoke"),
  getMapping: unimplemented("GetMapping"),
  getMappings: unimplemented("GetMappings"),
  list: (call) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
  getPluginInfo: answer(() => new plugproto.PluginInfo().setVersion("0.0.1")),
  getSchema: answer(() => new provproto.GetSchemaResponse().setSchema(SCHEMA)),
  attach: answer(() => new emptyproto.Empty()),
  cancel: answer(() => new emptyproto.Empty()),
  checkConfig: answer((req) => new provproto.CheckResponse().setInputs(req.getNews())),
  diffConfig: answer(noChange),
  configure: answer(() =>
    new provproto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(false)
      .setAcceptresources(false)
      .setAcceptoutputs(false),
  ),
  check: answer((req) => new provproto.CheckResponse().setInputs(req.getNews())),
  diff: answer(noChange),
  create: answer((req) =>
    new provproto.CreateResponse().setId(nameOf(req.getUrn())).setProperties(req.getProperties()),
  ),
  read: answer((req) =>
    new provproto.ReadResponse().setId(req.getId()).setProperties(req.getProperties()).setInputs(req.getInputs()),
  ),
  update: answer((req) => new provproto.UpdateResponse().setProperties(req.getNews())),
  delete: answer(() => new emptyproto.Empty()),
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write("pulumi-resource-${NATIVE_FLOOR_PACKAGE}: " + err.message + "\\n");
    process.exit(1);
  }
  process.stdout.write(port + "\\n");
});
`;
