/**
 * Dependency alerts over HTTP: the three lists with their filters, order and cursors (followed both
 * ways through `Link`), one alert, and the update (API version 2026-03-10): the dismissal rule,
 * assignee replacement, the agent assignment, 400, 409 and 422, each refusal changing nothing.
 */
import { describe, expect, it } from "vitest";
import {
  type ApiResponse,
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  parseLink,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();

const V2026 = { "x-service-api-version": "2026-03-10" };
const REPO = "/repos/acme-eng/api/depwatch/alerts";
const ORG = "/orgs/acme-eng/depwatch/alerts";
const ENTERPRISE = "/enterprises/acme/depwatch/alerts";
const R = "DependencyAlert";

const get = (path: string, token: string = TOKENS.siteAdmin, headers: Record<string, string> = {}) =>
  call(sandbox.emulator, "GET", path, { token, headers });
const enterprise = (query = "", token: string = TOKENS.siteAdmin) =>
  get(`${ENTERPRISE}${query}`, token, V2026);
const patch = (number: number, body: unknown, token: string = TOKENS.siteAdmin) =>
  call(sandbox.emulator, "PATCH", `${REPO}/${number}`, { token, body, headers: V2026 });

const numbers = (response: ApiResponse) => (response.body as Json[]).map((a) => a.number);
const keys = (response: ApiResponse) =>
  (response.body as Json[]).map((a) => `${a.repository?.full_name ?? "acme-eng/api"}#${a.number}`);
const alertsInState = async () => (await stateOf(sandbox.emulator)).dependencyAlerts;

describe("one alert", () => {
  it("shows the alert as the spec lists its fields", async () => {
    const response = await get(`${REPO}/1`);
    expect(response.status, response.text).toBe(200);
    const a = response.body;
    expect(Object.keys(a).sort()).toEqual(
      [
        "assignees",
        "auto_dismissed_at",
        "created_at",
        "dependency",
        "dismissed_at",
        "dismissed_by",
        "dismissed_comment",
        "dismissed_reason",
        "fixed_at",
        "html_url",
        "number",
        "security_advisory",
        "security_vulnerability",
        "state",
        "updated_at",
        "url",
      ].sort(),
    );
    expect(a).toMatchObject({
      number: 1,
      state: "open",
      dependency: {
        package: { ecosystem: "npm", name: "lodash" },
        manifest_path: "package-lock.json",
        scope: "runtime",
      },
      url: `${sandbox.emulator.url}${REPO}/1`,
      html_url: `${sandbox.emulator.origin}/acme-eng/api/security/depwatch/1`,
      created_at: "2026-01-02T10:00:00Z",
      dismissed_at: null,
      dismissed_by: null,
      dismissed_reason: null,
      dismissed_comment: null,
      fixed_at: null,
      security_vulnerability: {
        package: { ecosystem: "npm", name: "lodash" },
        severity: "critical",
        vulnerable_version_range: "< 4.17.12",
        first_patched_version: { identifier: "4.17.12" },
      },
    });
    expect(a.assignees.map((u: Json) => u.login)).toEqual(["octocat"]);
    const advisory = a.security_advisory;
    expect(advisory.severity).toBe("critical");
    expect(advisory.vulnerabilities).toHaveLength(1);
    expect(advisory.cvss).toEqual({ vector_string: expect.any(String), score: 9.8 });
    expect(advisory.cvss_severities.cvss_v3.score).toBe(9.8);
    expect(advisory.epss).toEqual({ percentage: 0.0215, percentile: expect.any(Number) });
    expect(advisory.cwes).toEqual([{ cwe_id: "CWE-1321", name: "Prototype Pollution" }]);
    expect(advisory.identifiers.map((i: Json) => i.type)).toEqual(["GHSA", "CVE"]);
    expect(advisory.references[0].url).toMatch(/^https:\/\//);
    expect(advisory.withdrawn_at).toBeNull();
  });

  it("shows a dismissed alert with who dismissed it and why", async () => {
    const a = (await get(`${REPO}/3`)).body;
    expect(a).toMatchObject({
      state: "dismissed",
      dismissed_reason: "tolerable_risk",
      dismissed_comment: "Only used against our own services.",
      dismissed_at: "2026-01-05T10:00:00Z",
    });
    expect(a.dismissed_by.login).toBe("olivia");
  });

  it("answers 404 for an alert that does not exist, a malformed number, and a repository the caller cannot see", async () => {
    for (const path of [`${REPO}/99`, `${REPO}/01`, `${REPO}/abc`]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    // olivia is no member of acme-ops.
    expect((await get("/repos/acme-ops/infra/depwatch/alerts/1", TOKENS.owner)).status).toBe(404);
    expect((await get("/repos/acme-ops/infra/depwatch/alerts", TOKENS.owner)).status).toBe(404);
    expect((await get("/repos/acme-ops/infra/depwatch/alerts/1")).status).toBe(200);
  });
});

describe("repository list", () => {
  it("lists every alert, newest first, without repository", async () => {
    const response = await get(REPO);
    expect(response.status).toBe(200);
    expect(numbers(response)).toEqual([3, 2, 1]);
    expect(response.headers.get("link")).toBeNull();
    for (const a of response.body) expect(a.repository).toBeUndefined();
  });

  it.each([
    ["state=open", [2, 1]],
    ["state=open,dismissed", [3, 2, 1]],
    ["state=fixed", []],
    ["severity=critical", [1]],
    ["severity=medium,high", [3, 2]],
    ["ecosystem=npm", [3, 2, 1]],
    ["ecosystem=pip", []],
    ["package=lodash,minimist", [2, 1]],
    ["manifest=package-lock.json", [3, 2, 1]],
    ["manifest=requirements.txt", []],
    ["scope=development", [2]],
    ["scope=runtime", [3, 1]],
    ["classification=general", [3, 2, 1]],
    ["classification=malware", []],
    ["has=patch", [3, 2, 1]],
    ["assignee=octocat", [1]],
    ["assignee=OCTOCAT,olivia", [1]],
    ["assignee=none", [3, 2]],
    ["assignee=*", [1]],
    ["epss_percentage=>0.01", [1]],
    ["epss_percentage=<=0.0043", [3, 2]],
    ["epss_percentage=0.0043", [2]],
    ["epss_percentage=0.001..0.005", [3, 2]],
    ["sort=epss_percentage&direction=asc", [3, 2, 1]],
    ["sort=epss_percentage", [1, 2, 3]],
    ["sort=created&direction=asc", [1, 2, 3]],
    ["sort=updated", [1, 3, 2]],
    ["state=open&severity=critical&ecosystem=npm&scope=runtime", [1]],
  ])("filters and orders by %s", async (query, expected) => {
    const response = await get(`${REPO}?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(numbers(response)).toEqual(expected);
  });

  it.each([
    ["state", "state=closed"],
    ["state", "state=open,gone"],
    ["severity", "severity=moderate"],
    ["ecosystem", "ecosystem=cargo"],
    ["classification", "classification=spam"],
    ["scope", "scope=test"],
    ["sort", "sort=severity"],
    ["direction", "direction=up"],
    ["has", "has=fix"],
    ["epss_percentage", "epss_percentage=2"],
    ["epss_percentage", "epss_percentage=>=x"],
    ["epss_percentage", "epss_percentage=0.5..2"],
    ["after", "after=not-a-cursor"],
    ["before", "before=W10"],
    ["before", "before=abc&after=abc"],
    ["page", "page=1&after=WyIyMDI2LTAxLTAzVDEwOjAwOjAwWiIsMTAwMCwyXQ"],
  ])("refuses %s outside the allowed values (%s) with a 422 naming it", async (field, query) => {
    const response = await get(`${REPO}?${query}`);
    expectValidationFailed(response, field, "invalid", R);
    const item = response.body.errors.find((e: Json) => e.field === field);
    expect(item.message).toContain(field);
  });

  it("pages by cursor, following Link forward and back", async () => {
    const first = await get(`${REPO}?per_page=1`);
    expect(numbers(first)).toEqual([3]);
    const firstLinks = parseLink(first.headers.get("link"));
    expect(Object.keys(firstLinks)).toEqual(["next"]);
    const nextUrl = new URL(firstLinks.next ?? "");
    expect(nextUrl.searchParams.get("per_page")).toBe("1");
    expect(nextUrl.searchParams.get("after")).toMatch(/^[A-Za-z0-9_-]+$/);

    const second = await get(firstLinks.next ?? "");
    expect(numbers(second)).toEqual([2]);
    const secondLinks = parseLink(second.headers.get("link"));
    expect(Object.keys(secondLinks).sort()).toEqual(["next", "prev"]);
    expect(new URL(secondLinks.prev ?? "").searchParams.get("before")).toBeTruthy();

    const third = await get(secondLinks.next ?? "");
    expect(numbers(third)).toEqual([1]);
    const thirdLinks = parseLink(third.headers.get("link"));
    expect(Object.keys(thirdLinks)).toEqual(["prev"]);

    const back = await get(thirdLinks.prev ?? "");
    expect(numbers(back)).toEqual([2]);
    const backAgain = await get(parseLink(back.headers.get("link")).prev ?? "");
    expect(numbers(backAgain)).toEqual([3]);
    expect(Object.keys(parseLink(backAgain.headers.get("link")))).toEqual(["next"]);
  });

  it("keeps the filters and the order in the cursor links", async () => {
    const first = await get(`${REPO}?state=open&sort=created&direction=asc&per_page=1`);
    expect(numbers(first)).toEqual([1]);
    const next = parseLink(first.headers.get("link")).next ?? "";
    expect(new URL(next).searchParams.get("state")).toBe("open");
    const second = await get(next);
    expect(numbers(second)).toEqual([2]);
    expect(parseLink(second.headers.get("link")).next).toBeUndefined();
  });

  it("also pages by page number, which the description keeps on the repository list", async () => {
    const second = await get(`${REPO}?page=2&per_page=2`);
    expect(numbers(second)).toEqual([1]);
    const links = parseLink(second.headers.get("link"));
    expect(new URL(links.prev ?? "").searchParams.get("page")).toBe("1");
    expect(links.next).toBeUndefined();
  });
});

describe("organisation list", () => {
  it("lists the organisation's alerts with their repository, to its owners", async () => {
    const response = await get(ORG, TOKENS.owner);
    expect(response.status, response.text).toBe(200);
    expect(keys(response)).toEqual(["acme-eng/api#3", "acme-eng/api#2", "acme-eng/api#1"]);
    const repository = response.body[0].repository;
    expect(repository).toMatchObject({
      id: 1000,
      name: "api",
      full_name: "acme-eng/api",
      private: true,
      fork: false,
    });
    expect(repository.owner).toMatchObject({ login: "acme-eng", type: "Organization" });
    expect(repository.hooks_url).toBe(`${sandbox.emulator.url}/repos/acme-eng/api/hooks`);
  });

  it("shows a fork as one: acme-ops/infra, whose upstream is acme-eng/api", async () => {
    const response = await get("/orgs/acme-ops/depwatch/alerts", TOKENS.siteAdmin);
    expect(response.status, response.text).toBe(200);
    expect(response.body[0].repository).toMatchObject({ full_name: "acme-ops/infra", fork: true });
  });

  it("refuses a member who is neither an owner nor a security manager, until made one", async () => {
    const refused = await get(ORG, TOKENS.member);
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, /owner or security manager/);
    expect((await control(sandbox.emulator, "PUT", "/orgs/acme-eng/security-managers/octocat")).status).toBe(
      204,
    );
    const allowed = await get(`${ORG}?state=open`, TOKENS.member);
    expect(allowed.status).toBe(200);
    expect(numbers(allowed)).toEqual([2, 1]);
    expect(
      (await control(sandbox.emulator, "DELETE", "/orgs/acme-eng/security-managers/octocat")).status,
    ).toBe(204);
    expect((await get(ORG, TOKENS.member)).status).toBe(403);
  });

  it("makes only members security managers", async () => {
    const response = await control(sandbox.emulator, "PUT", "/orgs/acme-ops/security-managers/octocat");
    expect(response.status).toBe(422);
    expect((await control(sandbox.emulator, "PUT", "/orgs/acme-eng/security-managers/nobody")).status).toBe(
      404,
    );
    expect(
      (await control(sandbox.emulator, "DELETE", "/orgs/acme-eng/security-managers/octocat")).status,
    ).toBe(404);
  });

  it("answers 404 for an unknown organisation and 403 for an organisation the caller does not own", async () => {
    expect((await get("/orgs/nowhere/depwatch/alerts")).status).toBe(404);
    expect((await get("/orgs/acme-ops/depwatch/alerts", TOKENS.owner)).status).toBe(403);
  });
});

describe("enterprise list", () => {
  it("exists in API version 2026-03-10 only", async () => {
    for (const headers of [{}, { "x-service-api-version": "2022-11-28" }]) {
      const response = await get(ENTERPRISE, TOKENS.siteAdmin, headers);
      expect(response.status).toBe(400);
      expectErrorBody(response.body, /2026-03-10/);
    }
  });

  it("lists the alerts of every organisation the caller owns, each with its repository", async () => {
    const response = await enterprise();
    expect(response.status, response.text).toBe(200);
    expect(keys(response)).toEqual([
      "acme-ops/infra#1",
      "acme-eng/api#3",
      "acme-eng/api#2",
      "acme-eng/api#1",
    ]);
    for (const a of response.body)
      expect(a.repository.url).toBe(`${sandbox.emulator.url}/repos/${a.repository.full_name}`);
  });

  it("leaves out the organisations the caller neither owns nor manages the security of", async () => {
    // olivia owns acme-eng only; octocat, a member of acme-eng, owns nothing.
    expect(keys(await enterprise("", TOKENS.owner))).toEqual([
      "acme-eng/api#3",
      "acme-eng/api#2",
      "acme-eng/api#1",
    ]);
    const none = await enterprise("", TOKENS.member);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    await control(sandbox.emulator, "PUT", "/orgs/acme-eng/security-managers/octocat");
    expect(keys(await enterprise("", TOKENS.member))).toEqual([
      "acme-eng/api#3",
      "acme-eng/api#2",
      "acme-eng/api#1",
    ]);
  });

  it("refuses app and fine-grained tokens, tokens without repo or security_events, and outsiders", async () => {
    const fineGrained = await enterprise("", TOKENS.fineGrained);
    expect(fineGrained.status).toBe(403);
    expectErrorBody(fineGrained.body, "Resource not accessible by fine-grained personal access token");
    expect((await enterprise("", TOKENS.install)).status).toBe(403);
    const noScopes = await enterprise("", TOKENS.noScopes);
    expect(noScopes.status).toBe(403);
    expect(noScopes.headers.get("x-accepted-oauth-scopes")).toBe("repo, security_events");
    expect((await get("/enterprises/nowhere/depwatch/alerts", TOKENS.siteAdmin, V2026)).status).toBe(404);
  });

  it("filters across organisations and pages by cursor both ways", async () => {
    expect(keys(await enterprise("?has=patch"))).toEqual([
      "acme-eng/api#3",
      "acme-eng/api#2",
      "acme-eng/api#1",
    ]);
    expect(keys(await enterprise("?severity=high"))).toEqual(["acme-ops/infra#1", "acme-eng/api#3"]);
    expect(keys(await enterprise("?ecosystem=pip&state=open"))).toEqual(["acme-ops/infra#1"]);
    expect(keys(await enterprise("?sort=epss_percentage&per_page=1"))).toEqual(["acme-ops/infra#1"]);
    expectValidationFailed(await enterprise("?manifest=x&scope=dev"), "scope", "invalid", R);

    const pages: string[][] = [];
    let response = await enterprise("?per_page=3");
    pages.push(keys(response));
    const next = parseLink(response.headers.get("link")).next;
    expect(next).toBeDefined();
    response = await get(next ?? "", TOKENS.siteAdmin, V2026);
    pages.push(keys(response));
    expect(pages).toEqual([["acme-ops/infra#1", "acme-eng/api#3", "acme-eng/api#2"], ["acme-eng/api#1"]]);
    const prev = parseLink(response.headers.get("link")).prev;
    const back = await get(prev ?? "", TOKENS.siteAdmin, V2026);
    expect(keys(back)).toEqual(["acme-ops/infra#1", "acme-eng/api#3", "acme-eng/api#2"]);
    expect(parseLink(back.headers.get("link")).prev).toBeUndefined();
  });
});

describe("update", () => {
  it("exists in API version 2026-03-10 only", async () => {
    const response = await call(sandbox.emulator, "PATCH", `${REPO}/1`, { body: { state: "open" } });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, /2026-03-10/);
  });

  it("dismisses with a reason and a comment, and reopens", async () => {
    const dismissed = await patch(
      1,
      { state: "dismissed", dismissed_reason: "not_used", dismissed_comment: "x".repeat(280) },
      TOKENS.owner,
    );
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(dismissed.body).toMatchObject({
      number: 1,
      state: "dismissed",
      dismissed_reason: "not_used",
      dismissed_comment: "x".repeat(280),
    });
    expect(dismissed.body.dismissed_by.login).toBe("olivia");
    expect(Date.parse(dismissed.body.dismissed_at)).not.toBeNaN();
    expect(dismissed.body.updated_at).toBe(dismissed.body.dismissed_at);
    expect((await get(`${REPO}/1`)).body.state).toBe("dismissed");

    const reopened = await patch(1, { state: "open" });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({
      state: "open",
      dismissed_at: null,
      dismissed_by: null,
      dismissed_reason: null,
      dismissed_comment: null,
    });
  });

  it("requires dismissed_reason when dismissing, from the allowed values, and refuses changes nothing", async () => {
    const before = await alertsInState();
    expectValidationFailed(await patch(1, { state: "dismissed" }), "dismissed_reason", "missing_field", R);
    const wrongReason = await patch(1, { state: "dismissed", dismissed_reason: "wont_fix" });
    expectValidationFailed(wrongReason, "dismissed_reason", "invalid", R);
    expect(wrongReason.body.errors[0].message).toContain(
      "fix_started, inaccurate, no_bandwidth, not_used, tolerable_risk",
    );
    expectValidationFailed(
      await patch(1, {
        state: "dismissed",
        dismissed_reason: "inaccurate",
        dismissed_comment: "x".repeat(281),
      }),
      "dismissed_comment",
      "invalid",
      R,
    );
    expectValidationFailed(
      await patch(1, { state: "open", dismissed_reason: "inaccurate" }),
      "dismissed_reason",
      "invalid",
      R,
    );
    expectValidationFailed(await patch(1, { state: "closed" }), "state", "invalid", R);
    expectValidationFailed(await patch(1, { state: "open", severity: "low" }), "severity", "invalid", R);
    expect(await alertsInState()).toEqual(before);
  });

  it("answers 400 for a body that is not an object or names nothing to change", async () => {
    for (const body of [{}, { dismissed_comment: "why" }, { agent_assignment: {} }]) {
      const response = await patch(2, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expectErrorBody(response.body, "The request body must name state or assignees to change");
    }
    for (const rawBody of ["[]", '"open"', "{"]) {
      const response = await call(sandbox.emulator, "PATCH", `${REPO}/2`, { rawBody, headers: V2026 });
      expect(response.status, rawBody).toBe(400);
    }
  });

  it("replaces the assignees, and an empty array clears them", async () => {
    const replaced = await patch(1, { assignees: ["olivia", "ADMIN", "olivia"] });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.assignees.map((u: Json) => u.login)).toEqual(["olivia", "admin"]);
    expect(replaced.body.state).toBe("open");
    expect(numbers(await get(`${REPO}?assignee=octocat`))).toEqual([]);
    expect(numbers(await get(`${REPO}?assignee=admin`))).toEqual([1]);
    const cleared = await patch(1, { assignees: [] });
    expect(cleared.body.assignees).toEqual([]);
    expect(numbers(await get(`${REPO}?assignee=none`))).toEqual([3, 2, 1]);
  });

  it("refuses an assignee without access to the repository, naming them", async () => {
    const before = await alertsInState();
    for (const login of ["mona", "nobody"]) {
      const response = await patch(1, { assignees: ["olivia", login] });
      expectValidationFailed(response, "assignees", "invalid", R);
      expect(response.body.errors[0].message).toContain(login);
    }
    expectValidationFailed(await patch(1, { assignees: "olivia" }), "assignees", "invalid", R);
    expect(await alertsInState()).toEqual(before);
  });

  it("assigns the agent with its assignment, and ignores the assignment without the agent", async () => {
    const agent = "assistant-swe-agent[bot]";
    const assignment = { custom_instructions: "Upgrade lodash", model: "default" };
    const response = await patch(2, { assignees: [agent, "octocat"], agent_assignment: assignment });
    expect(response.status, response.text).toBe(200);
    expect(response.body.assignees.map((u: Json) => [u.login, u.type])).toEqual([
      [agent, "Bot"],
      ["octocat", "User"],
    ]);
    const stored = (await alertsInState()).find((a: Json) => a.repo === "acme-eng/api" && a.number === 2);
    expect(stored.agentAssignment).toEqual(assignment);
    await patch(2, { assignees: ["octocat"], agent_assignment: assignment });
    const after = (await alertsInState()).find((a: Json) => a.repo === "acme-eng/api" && a.number === 2);
    expect(after.agentAssignment).toBeUndefined();
    expectValidationFailed(
      await patch(2, { assignees: [agent], agent_assignment: { temperature: "1" } }),
      "agent_assignment.temperature",
      "invalid",
      R,
    );
    expectValidationFailed(
      await patch(2, { assignees: [agent], agent_assignment: "x" }),
      "agent_assignment",
      "invalid",
      R,
    );
  });

  it("answers 409 to a state change of an alert that was fixed or auto-dismissed", async () => {
    const fixed = await control(sandbox.emulator, "POST", "/repos/acme-eng/api/depwatch/alerts/1/fix");
    expect(fixed.status).toBe(200);
    expect(fixed.body).toEqual({ number: 1, state: "fixed" });
    const alert = (await get(`${REPO}/1`)).body;
    expect(alert.state).toBe("fixed");
    expect(Date.parse(alert.fixed_at)).not.toBeNaN();
    expect(numbers(await get(`${REPO}?state=fixed`))).toEqual([1]);

    const conflict = await patch(1, { state: "dismissed", dismissed_reason: "not_used" });
    expect(conflict.status).toBe(409);
    expectErrorBody(conflict.body, "Alert 1 is fixed; its state cannot be changed");
    expect((await patch(1, { state: "open" })).status).toBe(409);
    // Assignees stay changeable: people still follow up a fixed alert.
    expect((await patch(1, { assignees: ["olivia"] })).status).toBe(200);

    expect(
      (await control(sandbox.emulator, "POST", "/repos/acme-eng/api/depwatch/alerts/2/auto-dismiss")).status,
    ).toBe(200);
    expect((await get(`${REPO}/2`)).body.auto_dismissed_at).not.toBeNull();
    expect((await patch(2, { state: "open" })).status).toBe(409);
    // Only an open alert closes by itself.
    expect(
      (await control(sandbox.emulator, "POST", "/repos/acme-eng/api/depwatch/alerts/3/fix")).status,
    ).toBe(409);
    expect(
      (await control(sandbox.emulator, "POST", "/repos/acme-eng/api/depwatch/alerts/9/fix")).status,
    ).toBe(404);
  });

  it("is refused to callers without write access, and answers 404 for an unknown alert", async () => {
    expect((await patch(9, { state: "open" })).status).toBe(404);
    expect((await patch(1, { state: "open" }, TOKENS.install)).status).toBe(403);
    expect((await patch(1, { state: "open" }, TOKENS.noScopes)).status).toBe(403);
    const outsider = await call(sandbox.emulator, "PATCH", "/repos/acme-ops/infra/depwatch/alerts/1", {
      token: TOKENS.member,
      body: { state: "open" },
      headers: V2026,
    });
    expect(outsider.status).toBe(404);
  });
});
