/**
 * hosting-import's command line against a sandbox server in this process: help, organisations given
 * twice, folders of places that look alike, the secret commands it prints, what `--format
 * pulumi-import` refuses, and an object no program can carry.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { run, USAGE } from "../../importer/run";

const TOKEN = "svcp_siteadmin";
let emulator: RunningEmulator;
const work = mkdtempSync(join(tmpdir(), "hosting-import-run-"));

async function api(method: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

/** hosting-import with `argv` against the sandbox: its exit code, stdout and stderr. */
async function hostingImport(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  const err: string[] = [];
  const code = await run([...argv, "--library", "0.0.0-test"], {
    env: { HOSTING_BASE_URL: emulator.origin, HOSTING_TOKEN: TOKEN },
    out: (text) => {
      out += text;
    },
    err: (line) => err.push(line),
  });
  return { code, out, err: err.join("\n") };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  await api("POST", "/repos/acme-eng/api/hooks", {
    config: { url: "https://ci.example.com/hook", secret: "s3cret" },
  });
  await api("POST", "/orgs/acme-ops/actions/runner-groups", { name: "Deployers" });
  // An organisation whose login is the enterprise's folder name.
  await api("POST", "/admin/organizations", { login: "enterprise-acme", admin: "admin" });
  await api("POST", "/orgs/enterprise-acme/actions/runner-groups", { name: "Lookalike" });
  await api("POST", "/enterprises/acme/actions/runner-groups", { name: "Shared" });
});

afterAll(async () => {
  await emulator?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("hosting-import --help", () => {
  it("prints its usage only, on stdout, and exits 0, whatever else the line holds", async () => {
    for (const argv of [["--help"], ["-h"], ["--help", "--format", "json"]]) {
      let out = "";
      const err: string[] = [];
      const code = await run(argv, { env: {}, out: (t) => (out += t), err: (l) => err.push(l) });
      expect(code).toBe(0);
      expect(out).toBe(`${USAGE}\n`);
      expect(err).toEqual([]);
    }
  });
});

describe("organisations given twice", () => {
  it("are read once, whatever their case", async () => {
    const once = await hostingImport("--org", "acme-eng", "--format", "json");
    const twice = await hostingImport("--org", "acme-eng", "--org", "ACME-ENG", "--format", "json");
    expect(twice.code).toBe(0);
    const ids = (json: string) =>
      (JSON.parse(json) as { items: Array<{ kind: string; id: string }> }).items.map(
        (i) => `${i.kind} ${i.id}`,
      );
    expect(ids(twice.out)).toEqual(ids(once.out));
    expect(new Set(ids(twice.out)).size).toBe(ids(twice.out).length);
  });

  it("make one project with --split", async () => {
    const out = join(work, "twice");
    const { code } = await hostingImport("--org", "acme-eng", "--org", "ACME-ENG", "--split", "--out", out);
    expect(code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["acme-eng", "package.json"]);
  });

  it("refuses a name that is not a login (a folder with --split)", async () => {
    for (const name of ["..", ".hidden", "-x"]) {
      const { code, err } = await hostingImport(`--org=${name}`);
      expect(code).toBe(2);
      expect(err).toContain(`got "${name}"`);
    }
  });
});

describe("places whose names look alike", () => {
  it("land in two projects with their own titles: the organisation enterprise-acme and the enterprise acme", async () => {
    const out = join(work, "lookalike");
    const { code } = await hostingImport(
      "--org",
      "enterprise-acme",
      "--enterprise",
      "acme",
      "--split",
      "--out",
      out,
    );
    expect(code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["enterprise-acme", "org-enterprise-acme", "package.json"]);
    const org = readFileSync(join(out, "org-enterprise-acme/org-enterprise-acme.ts"), "utf8");
    expect(org).toContain(" * The organisation enterprise-acme, as read from");
    expect(org).toContain('"Lookalike"');
    expect(org).not.toContain('"Shared"');
    const enterprise = readFileSync(join(out, "enterprise-acme/enterprise-acme.ts"), "utf8");
    expect(enterprise).toContain(" * The enterprise acme, as read from");
    expect(enterprise).toContain('"Shared"');
    expect(enterprise).not.toContain('"Lookalike"');
  });
});

describe("the secret commands", () => {
  const commands = (out: string) => out.split("\n").filter((l) => l !== "" && !l.startsWith("#"));

  it("make and select the stack first, then set each secret in it, for a single program", async () => {
    const out = join(work, "single");
    const result = await hostingImport("--org", "acme-eng", "--language", "yaml", "--out", out);
    expect(result.code).toBe(0);
    expect(commands(result.out)).toEqual([
      `pulumi stack select --create dev --cwd ${out}`,
      `pulumi config set --secret acmeEngSecretNpmTokenValue --stack dev --cwd ${out}`,
      `pulumi config set --secret acmeEngApiSecretDeployKeyValue --stack dev --cwd ${out}`,
      `pulumi config set --secret acmeEngApiHookCiExampleComSecret --stack dev --cwd ${out}`,
    ]);
    // The rest are shell comments: the whole output runs as a script.
    expect(result.out).toMatch(/^# The API never returns these secrets/);
  });

  it("do the same in each project's folder for --split, in stack dev (hosting-fleet's default)", async () => {
    const out = join(work, "split-secrets");
    const result = await hostingImport("--org", "acme-eng", "--org", "acme-ops", "--split", "--out", out);
    expect(result.code).toBe(0);
    expect(commands(result.out)).toEqual([
      `pulumi stack select --create dev --cwd ${join(out, "acme-eng")}`,
      `pulumi config set --secret acmeEngSecretNpmTokenValue --stack dev --cwd ${join(out, "acme-eng")}`,
      `pulumi config set --secret acmeEngApiSecretDeployKeyValue --stack dev --cwd ${join(out, "acme-eng")}`,
      `pulumi config set --secret acmeEngApiHookCiExampleComSecret --stack dev --cwd ${join(out, "acme-eng")}`,
    ]);
  });

  it("name the stack --stack gives (hosting-fleet's --stack), and refuse one that is not a stack name", async () => {
    const out = join(work, "prod");
    const result = await hostingImport("--org", "acme-eng", "--split", "--stack", "prod", "--out", out);
    expect(commands(result.out)).toEqual([
      `pulumi stack select --create prod --cwd ${join(out, "acme-eng")}`,
      `pulumi config set --secret acmeEngSecretNpmTokenValue --stack prod --cwd ${join(out, "acme-eng")}`,
      `pulumi config set --secret acmeEngApiSecretDeployKeyValue --stack prod --cwd ${join(out, "acme-eng")}`,
      `pulumi config set --secret acmeEngApiHookCiExampleComSecret --stack prod --cwd ${join(out, "acme-eng")}`,
    ]);
    expect((await hostingImport("--org", "acme-eng", "--stack", "a b")).err).toContain(
      "--stack must be a stack name",
    );
    expect((await hostingImport("--org", "acme-eng", "--stack", "x", "--format", "json")).code).toBe(2);
  });

  it("quote a folder the shell would split", async () => {
    const out = join(work, "with space's");
    const result = await hostingImport("--org", "acme-eng", "--out", out);
    expect(commands(result.out)[0]).toBe(
      `pulumi stack select --create dev --cwd '${join(work, "with space'\\''s")}'`,
    );
  });
});

describe("--format pulumi-import", () => {
  it("refuses an object holding $$ or ${, naming it and --language yaml, and prints no file", async () => {
    await api("POST", "/orgs/acme-ops/actions/runner-groups", { name: "leak-$${hookSecret}" });
    const result = await hostingImport("--org", "acme-ops", "--format", "pulumi-import");
    expect(result.code).toBe(1);
    expect(result.out).toBe("");
    expect(result.err).toContain("--language yaml");
    expect(result.err).toMatch(
      / {2}OrgRunnerGroup acme-ops-runners-leak-hooksecret \("acme-ops\/\d+"\): its name holds "\$\{" or "\$\$"/m,
    );
    expect(result.err).not.toContain("Deployers");
    // The program writers carry the same value exactly.
    const out = join(work, "leak");
    expect((await hostingImport("--org", "acme-ops", "--language", "yaml", "--out", out)).code).toBe(0);
    expect(readFileSync(join(out, "Pulumi.yaml"), "utf8")).toContain("name: leak-$$$${hookSecret}\n");
  });
});

describe("an object no program can carry", () => {
  it("is left out with a warning naming it and the field; the others are written", async () => {
    await api("POST", "/orgs/acme-eng/issue-types", {
      name: "Lone",
      is_enabled: true,
      description: "lone\ud800sur",
    });
    const result = await hostingImport("--org", "acme-eng", "--format", "json");
    expect(result.code).toBe(0);
    expect(result.err).toMatch(
      /^warning: left out IssueType "acme-eng\/\d+": its description holds a lone UTF-16 surrogate/m,
    );
    const kinds = (JSON.parse(result.out) as { items: Array<{ kind: string }> }).items.map((i) => i.kind);
    expect(kinds).toContain("RepositoryWebhook");
    expect(kinds).not.toContain("IssueType");
  });
});

describe("an object whose value the provider would normalise", () => {
  it("is left out with a warning naming the field and both values: its first up would write", async () => {
    await api("POST", "/orgs/acme-ops/actions/runner-groups", { name: "  padded  " });
    await api("POST", "/orgs/acme-ops/actions/runner-groups", { name: "\ufeffbom first" });
    const result = await hostingImport("--org", "acme-ops", "--format", "json");
    expect(result.code).toBe(0);
    expect(result.err).toMatch(
      /^warning: left out OrgRunnerGroup "acme-ops\/\d+": its name " {2}padded {2}" becomes "padded" under the provider's check/m,
    );
    expect(result.err).toMatch(/its name "\ufeffbom first" becomes "bom first"/);
    const names = (JSON.parse(result.out) as { items: Array<{ args: { name?: string } }> }).items.map(
      (i) => i.args.name,
    );
    expect(names).toContain("Deployers");
    expect(names.filter((n) => n?.includes("padded") || n?.includes("bom"))).toEqual([]);
  });
});
