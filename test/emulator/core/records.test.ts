/**
 * Look-ups keyed by request input never reach `Object.prototype`: names of built-in object
 * properties sent as a token, as any path parameter, as body field names or as query values are
 * unknown names like any other (401 for a token, 404 for a path), never a 500 and never a caller.
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../emulator/families";
import type { Fixture } from "../../../emulator/index";
import {
  type ApiResponse,
  call,
  fillRoute,
  requiredHeaders,
  servedRoutes,
  TOKENS,
  UNMODELLED_PARAMS,
  useSandbox,
} from "../helpers";

const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype"];

/**
 * Parameters that name what the request makes, or what need not exist: a property definition's PUT
 * creates it, and a branch's rules are answered for any branch name. Any name is a name there.
 */
const NAMING = new Set([
  "PUT /orgs/:org/properties/schema/:custom_property_name custom_property_name",
  "GET /repos/:owner/:repo/rules/branches/:branch{.+} branch",
]);

/** The default fixture plus a classic token whose scopes carry such names. */
function fixture(): Fixture {
  const f = defaultFixture();
  f.tokens.svcp_odd_scopes = { kind: "classic", user: "olivia", scopes: [...NAMES], permissions: {} };
  return f;
}

// Hundreds of requests per route, answered in process; each test starts from the seeded world.
const sandbox = useSandbox({ fixture: fixture() }, { inProcess: true, seeded: true });

/** Routes that create the object their path names (create-or-update by name), with that parameter. */
const CREATED_BY_NAME = new Map([
  ["PUT /repos/:owner/:repo/environments/:environment_name", "environment_name"],
]);
const ROUTES = servedRoutes();

/** A deliberate 501 of a route the sandbox does not model (it names the route in a header), or below 500. */
const answered = (response: ApiResponse): boolean =>
  response.status < 500 ||
  (response.status === 501 && response.headers.get("x-sandbox-not-modelled") !== null);

/** A JSON object with every name as a key (`__proto__` as an own key, as JSON.parse reads it). */
const ODD_OBJECT = `{${NAMES.map((n) => `"${n}": {"name": "web", "url": "https://example.com/odd"}`).join(", ")}}`;

describe("names of built-in object properties", () => {
  it.each(NAMES)("the token %s is unknown (401) on every route", async (name) => {
    for (const route of ROUTES) {
      const [method, template] = route.split(" ") as [string, string];
      const world = {
        repoHook: 1,
        globalHook: 2,
        enterpriseGroup: 4,
        orgGroup: 5,
        protectionRule: 6,
        orgHook: 7,
        branchPolicy: 8,
        registry: "NPM_REGISTRY_SECRET",
      };
      const path = fillRoute(template, world, UNMODELLED_PARAMS);
      const response = await call(sandbox.emulator, method, path, { token: name });
      expect(response.status, `${route} with the token ${name}`).toBe(401);
    }
  });

  it("answers the cases of the issue with 401", async () => {
    for (const path of [
      "/repos/acme-eng/api/hooks",
      "/orgs/acme-eng/members",
      "/enterprises/acme/actions/runner-groups",
      "/admin/hooks",
    ]) {
      for (const token of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
        const response = await call(sandbox.emulator, "GET", path, { token });
        expect(response.status, `${path} with ${token}`).toBe(401);
        expect(response.body.message).toBe("Bad credentials");
      }
    }
  });

  /**
   * A PUT that creates the object its path names (an Actions secret): a built-in property's name
   * is a good name there, so the request goes on to the body, which these requests lack (422).
   */
  const NAMES_A_NEW_OBJECT = new Set(
    [
      "/orgs/:org/actions",
      "/repos/:owner/:repo/actions",
      "/repos/:owner/:repo/environments/:environment_name",
    ].map((scope) => `PUT ${scope}/secrets/:secret_name secret_name`),
  );

  it.each(ROUTES)("%s: as any path parameter, 404", async (route) => {
    const world = sandbox.world;
    const [method, template] = route.split(" ") as [string, string];
    const params = [...template.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
    for (const param of params) {
      for (const name of NAMES) {
        const path = fillRoute(template, world, { ...UNMODELLED_PARAMS, [param]: name });
        const response = await call(sandbox.emulator, method, path, {
          redirect: "manual",
          headers: requiredHeaders(route),
        });
        // Objects the sandbox does not model are not looked up: their routes answer 501.
        if (Object.hasOwn(UNMODELLED_PARAMS, param) && response.status === 501) {
          expect(response.headers.get("x-sandbox-not-modelled"), `${method} ${path}`).not.toBeNull();
        } else if (NAMES_A_NEW_OBJECT.has(`${route} ${param}`)) {
          expect(response.status, `${method} ${path}`).toBe(422);
        } else if (CREATED_BY_NAME.get(route) === param) {
          // A route that creates what its path names makes an object of exactly that name.
          expect(response.status, `${method} ${path}`).toBe(200);
          expect(response.body.name, `${method} ${path}`).toBe(name);
        } else if (NAMING.has(`${route} ${param}`)) {
          expect([200, 422], `${method} ${path}`).toContain(response.status);
        } else {
          expect(response.status, `${method} ${path}`).toBe(404);
        }
      }
    }
  });

  it.each(ROUTES.filter((r) => /^(POST|PUT|PATCH) /.test(r)))(
    "%s: as body field names, at the top and one level down, no 500",
    async (route) => {
      const world = sandbox.world;
      const [method, template] = route.split(" ") as [string, string];
      const path = fillRoute(template, world, UNMODELLED_PARAMS);
      for (const rawBody of [ODD_OBJECT, `{"config": ${ODD_OBJECT}, "name": "web"}`]) {
        const response = await call(sandbox.emulator, method, path, { rawBody });
        expect(answered(response), `${method} ${path} ${rawBody} -> ${response.status}`).toBe(true);
      }
    },
  );

  it.each(ROUTES.filter((r) => r.startsWith("GET ")))("%s: as query values, no 500", async (route) => {
    const world = sandbox.world;
    const path = fillRoute(route.slice("GET ".length), world, UNMODELLED_PARAMS);
    const query = ["filter", "role", "visible_to_organization", "cursor", "per_page", "page"]
      .map((key, i) => `${key}=${NAMES[i]}`)
      .join("&");
    for (const token of [TOKENS.siteAdmin, null]) {
      const response = await call(sandbox.emulator, "GET", `${path}?${query}`, { token, redirect: "manual" });
      expect(answered(response), `GET ${path}?${query} -> ${response.status}`).toBe(true);
    }
  });

  it("a token whose scopes carry such names is a classic token with no useful scope", async () => {
    const token = "svcp_odd_scopes";
    expect((await call(sandbox.emulator, "GET", "/user", { token })).status).toBe(200);
    const hooks = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks", { token });
    expect(hooks.status).toBe(403);
    expect(hooks.headers.get("x-oauth-scopes")).toBe(NAMES.join(", "));
  });
});
