import { describe, expect, it } from "vitest";
import type { ObservedResponse } from "../../emulator/core/observe";
import { allowed, pathPattern } from "./allowlist";
import { check, type Outcome, type Violation } from "./check";
import { mediaType, openApiToJsonSchema, operationKey, renameFields } from "./description";
import { report } from "./setup";

const JSON_TYPE = "application/json; charset=utf-8";

function observed(
  partial: Partial<ObservedResponse> & Pick<ObservedResponse, "method" | "route">,
): ObservedResponse {
  return { path: partial.route, status: 200, contentType: JSON_TYPE, body: "", ...partial };
}

const account = {
  login: "olivia",
  id: 2,
  node_id: "VXNlcjoy",
  avatar_url: "http://127.0.0.1/avatars/u/2",
  avatar_provider_id: "",
  url: "http://127.0.0.1/api/v3/users/olivia",
  html_url: "http://127.0.0.1/olivia",
  followers_url: "http://127.0.0.1/api/v3/users/olivia/followers",
  following_url: "http://127.0.0.1/api/v3/users/olivia/following{/other_user}",
  gists_url: "http://127.0.0.1/api/v3/users/olivia/gists{/gist_id}",
  starred_url: "http://127.0.0.1/api/v3/users/olivia/starred{/owner}{/repo}",
  subscriptions_url: "http://127.0.0.1/api/v3/users/olivia/subscriptions",
  organizations_url: "http://127.0.0.1/api/v3/users/olivia/orgs",
  repos_url: "http://127.0.0.1/api/v3/users/olivia/repos",
  events_url: "http://127.0.0.1/api/v3/users/olivia/events{/privacy}",
  received_events_url: "http://127.0.0.1/api/v3/users/olivia/received_events",
  type: "User",
  site_admin: false,
};

function violations(outcome: Outcome): Violation[] {
  if (outcome.kind !== "differs") throw new Error(`expected differences, got ${JSON.stringify(outcome)}`);
  return outcome.violations;
}

describe("the mapping from the sandbox's routes to the description", () => {
  it("names path parameters alike and maps the spec's neutral segments", () => {
    expect(operationKey("get", "/repos/{o}/{r}/hooks/{id}")).toBe("GET /repos/{}/{}/hooks/{}");
    expect(operationKey("PUT", "/repos/{owner}/{repo}/depwatch/secrets/{secret_name}")).toBe(
      "PUT /repos/{}/{}/dependabot/secrets/{}",
    );
    expect(operationKey("GET", "/orgs/{org}/assistant/billing")).toBe("GET /orgs/{}/copilot/billing");
    expect(operationKey("GET", "/user/workspaces")).toBe("GET /user/codespaces");
  });

  it("renames avatar_provider_id at any depth and maps the vendor media type", () => {
    expect(renameFields({ a: [{ avatar_provider_id: "" }], avatar_provider_id: "x" })).toEqual({
      a: [{ gravatar_id: "" }],
      gravatar_id: "x",
    });
    expect(mediaType("application/vnd.service+json; charset=utf-8")).toBe("application/vnd.github+json");
  });

  it("turns OpenAPI's nullable into JSON Schema types, enums and anyOf", () => {
    expect(openApiToJsonSchema({ type: "string", nullable: true, enum: ["a"] })).toEqual({
      type: ["string", "null"],
      enum: ["a", null],
    });
    expect(openApiToJsonSchema({ allOf: [{ $ref: "#/x" }], nullable: true })).toEqual({
      anyOf: [{ allOf: [{ $ref: "#/x" }] }, { type: "null" }],
    });
    expect(openApiToJsonSchema({ properties: { a: { type: "integer", nullable: false } } })).toEqual({
      properties: { a: { type: "integer", nullable: false } },
    });
  });
});

describe("check", () => {
  it("validates a body by the operation's schema, under other parameter names and neutral field names", () => {
    const outcome = check(
      observed({ method: "GET", route: "/orgs/{organization}/members", body: JSON.stringify([account]) }),
    );
    expect(outcome).toEqual({ kind: "validated", operation: "GET /orgs/{org}/members" });
  });

  it("maps depwatch to the description's dependabot", () => {
    const body = JSON.stringify({
      key_id: "012345678912345678",
      key: "2Sg8iYjAxxmI2LvUXpJjkYrMxURPc8r+dB7TJyvv1234",
    });
    expect(
      check(observed({ method: "GET", route: "/repos/{owner}/{repo}/depwatch/secrets/public-key", body })),
    ).toEqual({
      kind: "validated",
      operation: "GET /repos/{owner}/{repo}/dependabot/secrets/public-key",
    });
  });

  it("reports each field the schema requires and the body lacks, with where and what", () => {
    const bad = { ...account, id: "2" } as Record<string, unknown>;
    delete bad.login;
    const found = violations(
      check(
        observed({
          method: "GET",
          route: "/orgs/{org}/members",
          path: "/orgs/acme-eng/members",
          body: JSON.stringify([bad]),
        }),
      ),
    );
    expect(found.map((v) => [v.kind, v.instancePath, v.keyword, v.missing])).toEqual([
      ["schema", "/0", "required", "login"],
      ["schema", "/0/id", "type", undefined],
    ]);
    expect(found[1]).toMatchObject({
      method: "GET",
      status: 200,
      path: "/orgs/acme-eng/members",
      snippet: '"2"',
    });
  });

  it("accepts an empty body where the description gives none, and refuses one where it gives a schema", () => {
    expect(
      check(observed({ method: "DELETE", route: "/repos/{owner}/{repo}/hooks/{hook_id}", status: 204 })),
    ).toEqual({
      kind: "validated",
      operation: "DELETE /repos/{owner}/{repo}/hooks/{hook_id}",
    });
    const [missing] = violations(
      check(observed({ method: "GET", route: "/repos/{owner}/{repo}/hooks/{hook_id}" })),
    );
    expect(missing?.kind).toBe("body missing");
  });

  it("fails a success status the operation does not give; counts an error status any operation may answer", () => {
    const route = "/repos/{owner}/{repo}/hooks/{hook_id}";
    const [status] = violations(check(observed({ method: "GET", route, status: 201, body: "{}" })));
    expect(status?.kind).toBe("status not described");
    const body = JSON.stringify({ message: "Bad credentials", documentation_url: "x" });
    expect(check(observed({ method: "GET", route, status: 401, body }))).toEqual({
      kind: "no schema",
      reason: "status 401 not described",
      operation: "GET /repos/{owner}/{repo}/hooks/{hook_id}",
    });
  });

  it("checks an error body against the error schema the operation gives for its status", () => {
    const route = "/repos/{owner}/{repo}/hooks/{hook_id}";
    const ok = JSON.stringify({
      message: "Not Found",
      documentation_url: "https://docs.hosting.invalid/rest",
    });
    expect(check(observed({ method: "GET", route, status: 404, body: ok })).kind).toBe("validated");
    const [bad] = violations(
      check(observed({ method: "GET", route, status: 404, body: JSON.stringify({ message: 1 }) })),
    );
    expect(bad).toMatchObject({ kind: "schema", instancePath: "/message", keyword: "type" });
  });

  it("fails a route no description has, and another media type where the description gives JSON", () => {
    const [none] = violations(check(observed({ method: "GET", route: "/no/such/route", body: "{}" })));
    expect(none?.kind).toBe("no operation");
    const [html] = violations(
      check(
        observed({
          method: "GET",
          route: "/repos/{owner}/{repo}/hooks/{hook_id}",
          contentType: "text/html",
          body: "<p>",
        }),
      ),
    );
    expect(html?.kind).toBe("media type");
  });

  it("counts a listed deliberate difference, and paths the API does not have, without failing", () => {
    const outcome = check(
      observed({ method: "GET", route: "/repos/{owner}/{repo}/hooks/{hook_id}", status: 501, body: "{}" }),
    );
    expect(outcome).toMatchObject({
      kind: "no schema",
      reason: expect.stringMatching(/^deliberate difference: /),
    });
    expect(check(observed({ method: "GET", route: "(unmatched)", status: 404 })).kind).toBe("no schema");
  });
});

describe("the allowlist", () => {
  it("matches a difference by route, status, place and missing field only", () => {
    const met = {
      method: "DELETE",
      route: "/enterprises/{enterprise}/settings/billing/budgets/{budget_id}",
      status: 200,
      kind: "schema" as const,
      instancePath: "",
      keyword: "required",
      missing: "id",
    };
    expect(allowed(met)?.why).toMatch(/budget_id/);
    expect(allowed({ ...met, missing: "message" })).toBeUndefined();
    expect(allowed({ ...met, status: 201 })).toBeUndefined();
    expect(pathPattern("/budgets/12/budget_type")).toBe("/budgets/*/budget_type");
  });
});

describe("report", () => {
  it("lists each difference once per route, status and place, with the missing fields together", () => {
    const base = {
      method: "GET",
      route: "/r",
      path: "/r",
      status: 200,
      kind: "schema" as const,
      message: "m",
    };
    const text = report([
      { ...base, instancePath: "/0", keyword: "required", missing: "a", snippet: "{}" },
      { ...base, instancePath: "/1", keyword: "required", missing: "b", snippet: "{}" },
    ]);
    expect(text).toBe(
      [
        "1 differences from the published API description (list deliberate ones in test/conformance/allowlist.ts):",
        "- GET /r -> 200: schema at /* (1 responses)",
        "    missing required: a, b",
        "    e.g. /r: {}",
      ].join("\n"),
    );
  });
});
