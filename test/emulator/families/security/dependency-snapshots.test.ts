/**
 * Dependency snapshots over HTTP: a submission's required fields and limits (each refusal a 422
 * naming the field, storing nothing), the latest snapshot per correlator and detector, and the
 * effective dependency set with the spec's precedence, read through the control route.
 */
import { describe, expect, it } from "vitest";
import { call, control, expectValidationFailed, type Json, stateOf, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

const PATH = "/repos/acme-eng/api/dependency-graph/snapshots";
const SHA = "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3";

function snapshot(correlator: string, detector: string, manifests: Json = {}, rest: Json = {}): Json {
  return {
    version: 0,
    job: { id: `${correlator}-1`, correlator, html_url: "https://ci.example.com/1" },
    sha: SHA,
    ref: "refs/heads/main",
    detector: { name: detector, version: "1.0.0", url: `https://example.com/${detector}` },
    scanned: "2026-01-10T09:00:00Z",
    manifests,
    ...rest,
  };
}

const packageJson = (resolved: Json) => ({
  npm: { name: "package.json", file: { source_location: "package.json" }, resolved },
});

const submit = (body: unknown, token: string = TOKENS.siteAdmin, path = PATH) =>
  call(sandbox.emulator, "POST", path, { body, token });

async function graph(): Promise<Json> {
  const response = await control(sandbox.emulator, "GET", "/repos/acme-eng/api/dependency-graph");
  expect(response.status).toBe(200);
  return response.body;
}

const manifestOf = async (file: string) => (await graph()).manifests.find((m: Json) => m.file === file);

describe("submitting a snapshot", () => {
  it("answers 201 with id, created_at, message and result", async () => {
    const response = await submit(
      snapshot(
        "ci_build",
        "npm-detector",
        packageJson({ lodash: { package_url: "pkg:npm/lodash@4.17.21" } }),
        {
          metadata: { team: "platform", attempt: 2, nightly: false, note: null },
        },
      ),
    );
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(["created_at", "id", "message", "result"]);
    expect(Number.isInteger(response.body.id)).toBe(true);
    expect(Date.parse(response.body.created_at)).not.toBeNaN();
    expect(response.body.result).toBe("SUCCESS");
    expect(response.body.message).toBe("Dependency results for the repo have been successfully updated.");
    const stored = (await stateOf(sandbox.emulator)).dependencySnapshots;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: response.body.id,
      repo: "acme-eng/api",
      job: { correlator: "ci_build" },
    });
  });

  it("accepts a snapshot of another branch without changing the dependency graph", async () => {
    const response = await submit(
      snapshot("ci_build", "npm-detector", packageJson({ x: { package_url: "pkg:npm/express@4.0.0" } }), {
        ref: "refs/heads/develop",
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body.result).toBe("ACCEPTED");
    expect((await manifestOf("package.json")).source).toBe("static");
  });

  it.each([
    ["version", (b: Json) => delete b.version],
    ["job", (b: Json) => delete b.job],
    ["job.id", (b: Json) => delete b.job.id],
    ["job.correlator", (b: Json) => delete b.job.correlator],
    ["sha", (b: Json) => delete b.sha],
    ["ref", (b: Json) => delete b.ref],
    ["detector", (b: Json) => delete b.detector],
    ["detector.name", (b: Json) => delete b.detector.name],
    ["detector.version", (b: Json) => delete b.detector.version],
    ["detector.url", (b: Json) => delete b.detector.url],
    ["scanned", (b: Json) => delete b.scanned],
    ["manifests.npm.name", (b: Json) => delete b.manifests.npm.name],
    ["manifests.npm.resolved.a.package_url", (b: Json) => delete b.manifests.npm.resolved.a.package_url],
  ])("refuses a snapshot without %s", async (field, change) => {
    const body = snapshot("c", "d", packageJson({ a: { package_url: "pkg:npm/a@1.0.0" } }));
    change(body);
    expectValidationFailed(await submit(body), field, "missing_field", "Snapshot");
    expect((await stateOf(sandbox.emulator)).dependencySnapshots).toEqual([]);
  });

  const nineKeys = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [`k${n}`, n]));
  it.each([
    ["version", (b: Json) => (b.version = "1")],
    ["job.correlator", (b: Json) => (b.job.correlator = 7)],
    ["job.other", (b: Json) => (b.job.other = "x")],
    ["sha", (b: Json) => (b.sha = `${SHA}0`)],
    ["ref", (b: Json) => (b.ref = "main")],
    ["scanned", (b: Json) => (b.scanned = "yesterday")],
    ["metadata", (b: Json) => (b.metadata = nineKeys)],
    ["metadata.owner", (b: Json) => (b.metadata = { owner: { name: "x" } })],
    ["metadata.tags", (b: Json) => (b.metadata = { tags: ["a"] })],
    ["manifests.npm.metadata", (b: Json) => (b.manifests.npm.metadata = nineKeys)],
    ["manifests.npm.resolved.a.metadata.x", (b: Json) => (b.manifests.npm.resolved.a.metadata = { x: [] })],
    [
      "manifests.npm.resolved.a.package_url",
      (b: Json) => (b.manifests.npm.resolved.a.package_url = "npm/a@1"),
    ],
    [
      "manifests.npm.resolved.a.relationship",
      (b: Json) => (b.manifests.npm.resolved.a.relationship = "transitive"),
    ],
    ["manifests.npm.resolved.a.scope", (b: Json) => (b.manifests.npm.resolved.a.scope = "test")],
    [
      "manifests.npm.resolved.a.dependencies[1]",
      (b: Json) => (b.manifests.npm.resolved.a.dependencies = ["pkg:npm/b@1", "b"]),
    ],
    ["manifests.npm.file.path", (b: Json) => (b.manifests.npm.file = { path: "x" })],
    ["manifests", (b: Json) => (b.manifests = [])],
    ["extra", (b: Json) => (b.extra = true)],
  ])("refuses an invalid %s", async (field, change) => {
    const body = snapshot("c", "d", packageJson({ a: { package_url: "pkg:npm/a@1.0.0" } }));
    change(body);
    expectValidationFailed(await submit(body), field, "invalid", "Snapshot");
    expect((await stateOf(sandbox.emulator)).dependencySnapshots).toEqual([]);
  });

  it("takes a sha of exactly 40 characters and metadata of exactly 8 keys", async () => {
    const eight = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`k${n}`, `v${n}`]));
    const response = await submit(snapshot("c", "d", {}, { metadata: eight }));
    expect(response.status, response.text).toBe(201);
  });

  it("is refused to callers who cannot write to the repository", async () => {
    expect((await submit(snapshot("c", "d"), TOKENS.install)).status).toBe(403);
    expect((await submit(snapshot("c", "d"), TOKENS.noScopes)).status).toBe(403);
    // octocat is no member of acme-ops: its private repository is hidden.
    expect(
      (await submit(snapshot("c", "d"), TOKENS.member, "/repos/acme-ops/infra/dependency-graph/snapshots"))
        .status,
    ).toBe(404);
    expect(
      (await submit(snapshot("c", "d"), TOKENS.member, "/repos/acme-eng/nothing/dependency-graph/snapshots"))
        .status,
    ).toBe(404);
    expect((await submit(snapshot("c", "d"), TOKENS.member)).status).toBe(201);
  });
});

describe("the effective dependency graph", () => {
  it("starts from static analysis and the automatic submission, the automatic one first", async () => {
    const g = await graph();
    expect(g.ref).toBe("refs/heads/main");
    expect(g.manifests.map((m: Json) => [m.file, m.source, m.detector])).toEqual([
      ["package.json", "static", "static-analysis"],
      ["pom.xml", "automatic", "automatic-maven"],
      ["requirements.txt", "static", "static-analysis"],
    ]);
    expect(Object.keys((await manifestOf("pom.xml")).resolved).sort()).toEqual(["failureaccess", "guava"]);
  });

  it("keeps only the latest snapshot per correlator and detector", async () => {
    const first = await submit(
      snapshot("build", "npm-detector", packageJson({ a: { package_url: "pkg:npm/a@1.0.0" } })),
    );
    const other = await submit(
      snapshot("build", "other-detector", { r: { name: "requirements.txt", resolved: {} } }),
    );
    const second = await submit(
      snapshot("build", "npm-detector", packageJson({ b: { package_url: "pkg:npm/b@1.0.0" } })),
    );
    const ids = (await stateOf(sandbox.emulator)).dependencySnapshots.map((s: Json) => s.id).sort();
    expect(ids).toEqual([other.body.id, second.body.id].sort());
    expect(ids).not.toContain(first.body.id);
    const npm = await manifestOf("package.json");
    expect(npm.source).toBe("user");
    expect(Object.keys(npm.resolved)).toEqual(["b"]);
  });

  it("lets user submissions win; between detectors the first correlator alphabetically; one detector's submissions merge", async () => {
    const beta = await submit(
      snapshot("b-build", "beta", packageJson({ express: { package_url: "pkg:npm/express@4.0.0" } })),
    );
    const alpha = await submit(
      snapshot("a-build", "alpha", packageJson({ lodash: { package_url: "pkg:npm/lodash@4.17.21" } })),
    );
    const alphaLater = await submit(
      snapshot("c-build", "alpha", {
        npm: {
          name: "package.json",
          file: { source_location: "/package.json" },
          resolved: {
            minimist: { package_url: "pkg:npm/minimist@1.2.8", scope: "development" },
            lodash: { package_url: "pkg:npm/lodash@0.0.1" },
          },
        },
        maven: {
          name: "pom.xml",
          resolved: { guava: { package_url: "pkg:maven/com.google.guava/guava@33.0.0-jre" } },
        },
      }),
    );
    const npm = await manifestOf("package.json");
    expect(npm.source).toBe("user");
    expect(npm.detector).toBe("alpha");
    expect(npm.snapshots).toEqual([
      { id: alpha.body.id, correlator: "a-build" },
      { id: alphaLater.body.id, correlator: "c-build" },
    ]);
    // The first correlator's package wins within the merge; beta's express is not there.
    expect(npm.resolved).toEqual({
      lodash: { package_url: "pkg:npm/lodash@4.17.21" },
      minimist: { package_url: "pkg:npm/minimist@1.2.8", scope: "development" },
    });
    // A user submission beats the automatic one for pom.xml; requirements.txt stays static.
    const pom = await manifestOf("pom.xml");
    expect([pom.source, pom.detector, Object.keys(pom.resolved)]).toEqual(["user", "alpha", ["guava"]]);
    expect((await manifestOf("requirements.txt")).source).toBe("static");
    expect((await graph()).snapshots.map((s: Json) => s.id).sort()).toEqual(
      [beta.body.id, alpha.body.id, alphaLater.body.id].sort(),
    );
  });

  it("falls back to the next detector when the first one stops listing a file", async () => {
    await submit(
      snapshot("b-build", "beta", packageJson({ express: { package_url: "pkg:npm/express@4.0.0" } })),
    );
    await submit(
      snapshot("a-build", "alpha", packageJson({ lodash: { package_url: "pkg:npm/lodash@4.17.21" } })),
    );
    expect((await manifestOf("package.json")).detector).toBe("alpha");
    await submit(snapshot("a-build", "alpha", {}));
    const npm = await manifestOf("package.json");
    expect([npm.detector, Object.keys(npm.resolved)]).toEqual(["beta", ["express"]]);
  });

  it("answers 404 for an unknown repository", async () => {
    expect((await control(sandbox.emulator, "GET", "/repos/acme-eng/nothing/dependency-graph")).status).toBe(
      404,
    );
  });
});
