/**
 * Self-hosted runner groups over real HTTP: the spec's table E (Endpoints, Enterprise self-hosted
 * runner groups) with the organisation and runner sub-routes of notes/api.md, organisation groups
 * with their repositories, table OG (Organization runner group membership), the organisation runner
 * list, and the rules of Concepts (Enterprise runner group, Self-hosted runner, "a runner removed
 * from a group returns to the default group", Authentication 5).
 *
 * Fixture: enterprise `acme` (default group 1, runners 7-8); `acme-eng` (id 100, default group 2,
 * runners 1-4, 4 offline, repos 1000 api and 1001 web); `acme-ops` (id 101, default group 3,
 * runners 5-6, repo 1002 infra). New groups get ids from 4.
 */
import { describe, expect, it } from "vitest";
import {
  type ApiResponse,
  call,
  control,
  expectErrorBody,
  type Json,
  parseLink,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();

const E = "/enterprises/acme/actions/runner-groups";
const O = "/orgs/acme-eng/actions/runner-groups";
const OPS = "/orgs/acme-ops/actions/runner-groups";
const ENTERPRISE_DEFAULT = 1;
const ENG_DEFAULT = 2;
const OPS_DEFAULT = 3;
/** solo's default group (4) comes next, so the groups the tests create start at 5. */
const FIRST_NEW_GROUP = 5;
const WORKFLOW = "acme-eng/api/.github/workflows/ci.yml@refs/heads/main";
const LABELS = [
  { id: 1, name: "self-hosted", type: "read-only" },
  { id: 2, name: "linux", type: "read-only" },
  { id: 3, name: "x64", type: "read-only" },
];

/** Creates a group under `base` (asserting 201) and returns its JSON. */
async function createGroup(
  base: string,
  body: Record<string, unknown>,
  token: string = TOKENS.siteAdmin,
): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", base, { body, token });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The ids of the runners `GET {base}/{id}/runners` lists. */
async function runnerIdsOf(base: string, groupId: number): Promise<number[]> {
  const response = await call(sandbox.emulator, "GET", `${base}/${groupId}/runners`);
  expect(response.status, response.text).toBe(200);
  expect(response.body.total_count).toBe(response.body.runners.length);
  return response.body.runners.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
}

/** Runner id -> runner_group_id, from `GET /orgs/{org}/actions/runners`. */
async function groupOfRunners(org: string): Promise<Record<number, number>> {
  const response = await call(sandbox.emulator, "GET", `/orgs/${org}/actions/runners`);
  expect(response.status, response.text).toBe(200);
  return Object.fromEntries(
    response.body.runners.map((r: { id: number; runner_group_id: number }) => [r.id, r.runner_group_id]),
  );
}

/** The ids of the organisations an enterprise group lists. */
async function orgIdsOf(groupId: number): Promise<number[]> {
  const response = await call(sandbox.emulator, "GET", `${E}/${groupId}/organizations`);
  expect(response.status, response.text).toBe(200);
  expect(response.body.total_count).toBe(response.body.organizations.length);
  return response.body.organizations.map((o: { id: number }) => o.id).sort((a: number, b: number) => a - b);
}

/** The ids of the repositories an organisation group lists. */
async function repoIdsOf(base: string, groupId: number): Promise<number[]> {
  const response = await call(sandbox.emulator, "GET", `${base}/${groupId}/repositories`);
  expect(response.status, response.text).toBe(200);
  expect(response.body.total_count).toBe(response.body.repositories.length);
  return response.body.repositories.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
}

async function groupNames(base: string): Promise<string[]> {
  const response = await call(sandbox.emulator, "GET", `${base}?per_page=100`);
  expect(response.status, response.text).toBe(200);
  return response.body.runner_groups.map((g: { name: string }) => g.name);
}

/** Asserts a 422 `Validation Failed` naming `field` (when given) with `code`, resource RunnerGroup. */
function expect422(response: ApiResponse, field: string | undefined, code: string): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  const errors = response.body.errors as Array<Record<string, unknown>>;
  expect(Array.isArray(errors)).toBe(true);
  const item = errors.find((e) => field === undefined || e.field === field);
  expect(item, JSON.stringify(errors)).toBeDefined();
  expect(item?.resource).toBe("RunnerGroup");
  expect(item?.code).toBe(code);
}

describe("enterprise groups: GET E (list)", () => {
  it("lists the default group with every documented field", async () => {
    const response = await call(sandbox.emulator, "GET", E);
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(1);
    expect(response.body.runner_groups).toEqual([
      {
        id: ENTERPRISE_DEFAULT,
        name: "Default",
        visibility: "all",
        default: true,
        runners_url: `${sandbox.emulator.url}${E}/${ENTERPRISE_DEFAULT}/runners`,
        allows_public_repositories: false,
        restricted_to_workflows: false,
        selected_workflows: [],
        workflow_restrictions_read_only: false,
      },
    ]);
    expect(response.headers.get("link")).toBeNull();
  });

  it("counts created groups and pages with per_page", async () => {
    await createGroup(E, { name: "alpha" });
    await createGroup(E, { name: "beta" });
    const all = await call(sandbox.emulator, "GET", E);
    expect(all.body.total_count).toBe(3);
    expect(all.body.runner_groups.map((g: Json) => g.name)).toEqual(["Default", "alpha", "beta"]);

    const first = await call(sandbox.emulator, "GET", `${E}?per_page=1`);
    expect(first.status).toBe(200);
    expect(first.body.total_count).toBe(3);
    expect(first.body.runner_groups.map((g: Json) => g.name)).toEqual(["Default"]);
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    expect(new URL(links.next as string).searchParams.get("page")).toBe("2");
    expect(new URL(links.last as string).searchParams.get("page")).toBe("3");

    const second = await call(sandbox.emulator, "GET", links.next as string);
    expect(second.body.total_count).toBe(3);
    expect(second.body.runner_groups.map((g: Json) => g.name)).toEqual(["alpha"]);
    const third = await call(sandbox.emulator, "GET", `${E}?per_page=1&page=3`);
    expect(third.body.runner_groups.map((g: Json) => g.name)).toEqual(["beta"]);
    expect(parseLink(third.headers.get("link")).next).toBeUndefined();
    const beyond = await call(sandbox.emulator, "GET", `${E}?per_page=1&page=4`);
    expect(beyond.body.runner_groups).toEqual([]);
  });

  it("visible_to_organization keeps all-visibility groups and selected groups naming that org", async () => {
    await createGroup(E, { name: "everyone" });
    await createGroup(E, { name: "eng-only", visibility: "selected", selected_organization_ids: [100] });
    await createGroup(E, { name: "ops-only", visibility: "selected", selected_organization_ids: [101] });
    await createGroup(E, { name: "both", visibility: "selected", selected_organization_ids: [100, 101] });
    await createGroup(E, { name: "nobody", visibility: "selected", selected_organization_ids: [] });

    const eng = await call(sandbox.emulator, "GET", `${E}?visible_to_organization=acme-eng`);
    expect(eng.status).toBe(200);
    expect(eng.body.runner_groups.map((g: Json) => g.name)).toEqual([
      "Default",
      "everyone",
      "eng-only",
      "both",
    ]);
    expect(eng.body.total_count).toBe(4);

    const ops = await call(sandbox.emulator, "GET", `${E}?visible_to_organization=acme-ops`);
    expect(ops.body.runner_groups.map((g: Json) => g.name)).toEqual([
      "Default",
      "everyone",
      "ops-only",
      "both",
    ]);
    expect(ops.body.total_count).toBe(4);

    const unfiltered = await call(sandbox.emulator, "GET", E);
    expect(unfiltered.body.total_count).toBe(6);
  });

  it("visible_to_organization matches the organisation name case-insensitively", async () => {
    await createGroup(E, { name: "eng-only", visibility: "selected", selected_organization_ids: [100] });
    const response = await call(sandbox.emulator, "GET", `${E}?visible_to_organization=ACME-Eng`);
    expect(response.body.runner_groups.map((g: Json) => g.name)).toEqual(["Default", "eng-only"]);
  });

  it("visible_to_organization of an unknown organisation lists nothing", async () => {
    const response = await call(sandbox.emulator, "GET", `${E}?visible_to_organization=nope`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ total_count: 0, runner_groups: [] });
  });

  it("answers 404 for an unknown enterprise and accepts the slug in any case", async () => {
    expect((await call(sandbox.emulator, "GET", "/enterprises/nope/actions/runner-groups")).status).toBe(404);
    const upper = await call(sandbox.emulator, "GET", "/enterprises/ACME/actions/runner-groups");
    expect(upper.status).toBe(200);
    expect(upper.body.runner_groups[0].id).toBe(ENTERPRISE_DEFAULT);
  });
});

describe("enterprise groups: POST E (create)", () => {
  it("applies the defaults", async () => {
    const group = await createGroup(E, { name: "builds" });
    expect(group).toEqual({
      id: FIRST_NEW_GROUP,
      name: "builds",
      visibility: "all",
      default: false,
      runners_url: `${sandbox.emulator.url}${E}/${FIRST_NEW_GROUP}/runners`,
      allows_public_repositories: false,
      restricted_to_workflows: false,
      selected_workflows: [],
      workflow_restrictions_read_only: false,
    });
    const get = await call(sandbox.emulator, "GET", `${E}/${group.id}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(group);
    expect(await runnerIdsOf(E, group.id)).toEqual([]);
  });

  it("takes selected organisations, runners and workflows", async () => {
    const group = await createGroup(E, {
      name: "release",
      visibility: "selected",
      selected_organization_ids: [100, 101],
      runners: [7],
      allows_public_repositories: true,
      restricted_to_workflows: true,
      selected_workflows: [WORKFLOW],
    });
    expect(group).toMatchObject({
      name: "release",
      visibility: "selected",
      default: false,
      selected_organizations_url: `${sandbox.emulator.url}${E}/${group.id}/organizations`,
      allows_public_repositories: true,
      restricted_to_workflows: true,
      selected_workflows: [WORKFLOW],
    });
    expect(await orgIdsOf(group.id)).toEqual([100, 101]);
    expect(await runnerIdsOf(E, group.id)).toEqual([7]);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([8]);
  });

  it("gives selected_organizations_url only to groups of visibility selected", async () => {
    const selected = await createGroup(E, { name: "sel", visibility: "selected" });
    const all = await createGroup(E, { name: "all", visibility: "all" });
    expect(selected.selected_organizations_url).toBe(
      `${sandbox.emulator.url}${E}/${selected.id}/organizations`,
    );
    expect(all).not.toHaveProperty("selected_organizations_url");
    expect(all).not.toHaveProperty("selected_repositories_url");
    expect(selected).not.toHaveProperty("selected_repositories_url");
  });

  it("ignores selected_organization_ids when visibility is all", async () => {
    const group = await createGroup(E, { name: "all", selected_organization_ids: [100] });
    expect(group.visibility).toBe("all");
    expect(await orgIdsOf(group.id)).toEqual([]);
  });

  it.each([
    ["restricted_to_workflows omitted", {}],
    ["restricted_to_workflows false", { restricted_to_workflows: false }],
  ])("ignores selected_workflows with %s", async (_label, extra) => {
    const group = await createGroup(E, { name: "wf", selected_workflows: [WORKFLOW], ...extra });
    expect(group.restricted_to_workflows).toBe(false);
    expect(group.selected_workflows).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).body.selected_workflows).toEqual([]);
  });

  it("refuses a duplicate name, case-insensitively", async () => {
    await createGroup(E, { name: "builds" });
    for (const name of ["builds", "BUILDS", "Builds", "default"]) {
      const response = await call(sandbox.emulator, "POST", E, { body: { name } });
      expect422(response, "name", "already_exists");
    }
    expect(await groupNames(E)).toEqual(["Default", "builds"]);
  });

  it("allows a name used by an organisation group", async () => {
    await createGroup(O, { name: "shared-name" });
    const group = await createGroup(E, { name: "shared-name" });
    expect(group.name).toBe("shared-name");
  });

  it("refuses a missing name with missing_field", async () => {
    const response = await call(sandbox.emulator, "POST", E, { body: { visibility: "all" } });
    expect422(response, "name", "missing_field");
    expect(await groupNames(E)).toEqual(["Default"]);
  });

  it.each([
    ["an empty name", { name: "" }, "name"],
    ["a non-string name", { name: 42 }, "name"],
    ["visibility private (not for enterprise groups)", { name: "g", visibility: "private" }, "visibility"],
    ["an unknown visibility", { name: "g", visibility: "internal" }, "visibility"],
    [
      "allows_public_repositories that is not a boolean",
      { name: "g", allows_public_repositories: "yes" },
      "allows_public_repositories",
    ],
    [
      "restricted_to_workflows that is not a boolean",
      { name: "g", restricted_to_workflows: 1 },
      "restricted_to_workflows",
    ],
    [
      "selected_workflows that are not strings",
      { name: "g", restricted_to_workflows: true, selected_workflows: [1] },
      "selected_workflows",
    ],
    [
      "an unknown organisation id",
      { name: "g", visibility: "selected", selected_organization_ids: [100, 999] },
      "selected_organization_ids",
    ],
    [
      "organisation ids that are not integers",
      { name: "g", visibility: "selected", selected_organization_ids: ["100"] },
      "selected_organization_ids",
    ],
  ])("refuses %s with 422 invalid and creates nothing", async (_label, body, field) => {
    const response = await call(sandbox.emulator, "POST", E, { body });
    expect422(response, field, "invalid");
    expect(await groupNames(E)).toEqual(["Default"]);
  });

  it("names the unknown organisation id in the message", async () => {
    const response = await call(sandbox.emulator, "POST", E, {
      body: { name: "g", visibility: "selected", selected_organization_ids: [999] },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].message).toContain("999");
  });

  it("refuses organisation runners in runners with 422", async () => {
    const response = await call(sandbox.emulator, "POST", E, { body: { name: "g", runners: [1] } });
    expect422(response, "runners", "invalid");
    expect((await groupOfRunners("acme-eng"))[1]).toBe(ENG_DEFAULT);
  });

  // A refused create must leave nothing behind.
  it("creates no group when runners are refused (422)", async () => {
    const response = await call(sandbox.emulator, "POST", E, { body: { name: "g", runners: [1] } });
    expect(response.status).toBe(422);
    expect(await groupNames(E)).toEqual(["Default"]);
  });

  it("allocates distinct ids", async () => {
    const a = await createGroup(E, { name: "a" });
    const b = await createGroup(E, { name: "b" });
    expect(a.id).toBe(FIRST_NEW_GROUP);
    expect(b.id).toBe(FIRST_NEW_GROUP + 1);
  });
});

describe("enterprise groups: GET E/{runner_group_id}", () => {
  it("returns the default group", async () => {
    const response = await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: ENTERPRISE_DEFAULT, name: "Default", default: true });
  });

  it.each([
    ["an unknown id", "999"],
    ["an organisation group's id", String(ENG_DEFAULT)],
    ["a non-numeric id", "abc"],
  ])("answers 404 for %s", async (_label, id) => {
    const response = await call(sandbox.emulator, "GET", `${E}/${id}`);
    expect(response.status).toBe(404);
    expectErrorBody(response.body, "Not Found");
  });
});

describe("enterprise groups: PATCH E/{runner_group_id}", () => {
  it("renames a group", async () => {
    const group = await createGroup(E, { name: "old" });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, { body: { name: "new" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: group.id, name: "new" });
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).body.name).toBe("new");
    expect(await groupNames(E)).toEqual(["Default", "new"]);
  });

  it("accepts a change of case of the group's own name", async () => {
    const group = await createGroup(E, { name: "builds" });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, { body: { name: "Builds" } });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe("Builds");
  });

  it("refuses another group's name, case-insensitively", async () => {
    await createGroup(E, { name: "taken" });
    const group = await createGroup(E, { name: "mine" });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, { body: { name: "TAKEN" } });
    expect422(response, "name", "already_exists");
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).body.name).toBe("mine");
  });

  it("resets omitted visibility, allows_public_repositories and restricted_to_workflows to their defaults", async () => {
    const group = await createGroup(E, {
      name: "full",
      visibility: "selected",
      selected_organization_ids: [100],
      allows_public_repositories: true,
      restricted_to_workflows: true,
      selected_workflows: [WORKFLOW],
    });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, { body: { name: "renamed" } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: group.id,
      name: "renamed",
      visibility: "all",
      default: false,
      runners_url: `${sandbox.emulator.url}${E}/${group.id}/runners`,
      allows_public_repositories: false,
      restricted_to_workflows: false,
      selected_workflows: [],
      workflow_restrictions_read_only: false,
    });
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).body).toEqual(response.body);
  });

  it("clears the organisation list when visibility goes back to all", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100, 101],
    });
    const toAll = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, { body: { visibility: "all" } });
    expect(toAll.status).toBe(200);
    expect(toAll.body.visibility).toBe("all");
    expect(toAll.body).not.toHaveProperty("selected_organizations_url");
    expect(await orgIdsOf(group.id)).toEqual([]);
    const back = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, {
      body: { visibility: "selected" },
    });
    expect(back.body.visibility).toBe("selected");
    expect(back.body.selected_organizations_url).toBe(
      `${sandbox.emulator.url}${E}/${group.id}/organizations`,
    );
    expect(await orgIdsOf(group.id)).toEqual([]);
  });

  it("keeps the organisation list when visibility stays selected", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [101],
    });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, {
      body: { visibility: "selected", allows_public_repositories: true },
    });
    expect(response.status).toBe(200);
    expect(response.body.allows_public_repositories).toBe(true);
    expect(await orgIdsOf(group.id)).toEqual([101]);
  });

  it("stores selected_workflows only while restricted_to_workflows is true", async () => {
    const group = await createGroup(E, { name: "wf" });
    const restricted = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, {
      body: { restricted_to_workflows: true, selected_workflows: [WORKFLOW] },
    });
    expect(restricted.status).toBe(200);
    expect(restricted.body).toMatchObject({ restricted_to_workflows: true, selected_workflows: [WORKFLOW] });
    const unrestricted = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, {
      body: { restricted_to_workflows: false, selected_workflows: [WORKFLOW] },
    });
    expect(unrestricted.body).toMatchObject({ restricted_to_workflows: false, selected_workflows: [] });
  });

  it("refuses visibility private with 422", async () => {
    const group = await createGroup(E, { name: "g" });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, {
      body: { visibility: "private" },
    });
    expect422(response, "visibility", "invalid");
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).body.visibility).toBe("all");
  });

  // A refused PATCH must change nothing.
  it("keeps the old name when the PATCH is refused (422)", async () => {
    const group = await createGroup(E, { name: "before" });
    const response = await call(sandbox.emulator, "PATCH", `${E}/${group.id}`, {
      body: { name: "after", visibility: "private" },
    });
    expect(response.status).toBe(422);
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).body.name).toBe("before");
  });

  it("answers 404 for an unknown group", async () => {
    const response = await call(sandbox.emulator, "PATCH", `${E}/999`, { body: { name: "x" } });
    expect(response.status).toBe(404);
  });
});

describe("enterprise groups: DELETE E/{runner_group_id}", () => {
  it("deletes a group (204) and returns its runners to the default group", async () => {
    const group = await createGroup(E, { name: "doomed", runners: [7, 8] });
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([]);
    const response = await call(sandbox.emulator, "DELETE", `${E}/${group.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).status).toBe(404);
    expect(await groupNames(E)).toEqual(["Default"]);
    const runners = await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}/runners`);
    expect(runners.body.runners.map((r: Json) => [r.id, r.runner_group_id])).toEqual([
      [7, ENTERPRISE_DEFAULT],
      [8, ENTERPRISE_DEFAULT],
    ]);
  });

  it("refuses to delete the default group (422)", async () => {
    const response = await call(sandbox.emulator, "DELETE", `${E}/${ENTERPRISE_DEFAULT}`);
    expect(response.status).toBe(422);
    expectErrorBody(response.body, "Validation Failed");
    expect(response.body.errors[0]).toMatchObject({ resource: "RunnerGroup", code: "custom" });
    expect((await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}`)).status).toBe(200);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([7, 8]);
  });

  it("answers 404 for an unknown group and for a deleted one", async () => {
    expect((await call(sandbox.emulator, "DELETE", `${E}/999`)).status).toBe(404);
    const group = await createGroup(E, { name: "once" });
    expect((await call(sandbox.emulator, "DELETE", `${E}/${group.id}`)).status).toBe(204);
    expect((await call(sandbox.emulator, "DELETE", `${E}/${group.id}`)).status).toBe(404);
  });
});

describe("enterprise groups: organisation access", () => {
  it("GET .../organizations lists organisation summaries", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [101, 100],
    });
    const response = await call(sandbox.emulator, "GET", `${E}/${group.id}/organizations`);
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(2);
    const eng = response.body.organizations.find((o: Json) => o.id === 100);
    expect(eng).toMatchObject({
      login: "acme-eng",
      id: 100,
      url: `${sandbox.emulator.url}/orgs/acme-eng`,
      description: "Acme engineering",
    });
    for (const key of [
      "node_id",
      "repos_url",
      "events_url",
      "hooks_url",
      "issues_url",
      "members_url",
      "public_members_url",
      "avatar_url",
    ]) {
      expect(eng).toHaveProperty(key);
    }
    expect(response.body.organizations.map((o: Json) => o.login).sort()).toEqual(["acme-eng", "acme-ops"]);
  });

  it("GET .../organizations pages with per_page", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100, 101],
    });
    const page = await call(sandbox.emulator, "GET", `${E}/${group.id}/organizations?per_page=1&page=2`);
    expect(page.body.total_count).toBe(2);
    expect(page.body.organizations).toHaveLength(1);
    expect(parseLink(page.headers.get("link")).prev).toBeDefined();
  });

  it("GET .../organizations of an all-visibility group is empty; of an unknown group 404", async () => {
    expect(await orgIdsOf(ENTERPRISE_DEFAULT)).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${E}/999/organizations`)).status).toBe(404);
  });

  it("PUT .../organizations replaces the list (204)", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100],
    });
    const put = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations`, {
      body: { selected_organization_ids: [101] },
    });
    expect(put.status).toBe(204);
    expect(put.text).toBe("");
    expect(await orgIdsOf(group.id)).toEqual([101]);
    const empty = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations`, {
      body: { selected_organization_ids: [] },
    });
    expect(empty.status).toBe(204);
    expect(await orgIdsOf(group.id)).toEqual([]);
    const visible = await call(sandbox.emulator, "GET", `${E}?visible_to_organization=acme-ops`);
    expect(visible.body.runner_groups.map((g: Json) => g.name)).toEqual(["Default"]);
  });

  it("PUT .../organizations refuses a group whose visibility is not selected (422)", async () => {
    const group = await createGroup(E, { name: "all" });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations`, {
      body: { selected_organization_ids: [100] },
    });
    expect422(response, "visibility", "invalid");
    expect(await orgIdsOf(group.id)).toEqual([]);
  });

  it("PUT .../organizations refuses a missing selected_organization_ids (422 missing_field)", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100],
    });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations`, { body: {} });
    expect422(response, "selected_organization_ids", "missing_field");
    expect(await orgIdsOf(group.id)).toEqual([100]);
  });

  it("PUT .../organizations refuses an unknown organisation id (422) and keeps the list", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100],
    });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations`, {
      body: { selected_organization_ids: [101, 4242] },
    });
    expect422(response, "selected_organization_ids", "invalid");
    expect(await orgIdsOf(group.id)).toEqual([100]);
  });

  it("PUT .../organizations/{org_id} adds one organisation, idempotently", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100],
    });
    const add = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations/101`);
    expect(add.status).toBe(204);
    expect(add.text).toBe("");
    expect(await orgIdsOf(group.id)).toEqual([100, 101]);
    expect((await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations/101`)).status).toBe(204);
    expect(await orgIdsOf(group.id)).toEqual([100, 101]);
  });

  it("PUT .../organizations/{org_id} refuses an unknown organisation (422)", async () => {
    const group = await createGroup(E, { name: "sel", visibility: "selected" });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/organizations/999`);
    expect422(response, "selected_organization_ids", "invalid");
    expect(await orgIdsOf(group.id)).toEqual([]);
  });

  it("DELETE .../organizations/{org_id} removes one organisation (204)", async () => {
    const group = await createGroup(E, {
      name: "sel",
      visibility: "selected",
      selected_organization_ids: [100, 101],
    });
    const response = await call(sandbox.emulator, "DELETE", `${E}/${group.id}/organizations/100`);
    expect(response.status).toBe(204);
    expect(await orgIdsOf(group.id)).toEqual([101]);
    const visible = await call(sandbox.emulator, "GET", `${E}?visible_to_organization=acme-eng`);
    expect(visible.body.runner_groups.map((g: Json) => g.name)).toEqual(["Default"]);
  });

  it.each([
    ["PUT", "/organizations/100"],
    ["DELETE", "/organizations/100"],
  ])("%s ...%s refuses a group whose visibility is not selected (422)", async (method, suffix) => {
    const group = await createGroup(E, { name: "all" });
    const response = await call(sandbox.emulator, method, `${E}/${group.id}${suffix}`);
    expect422(response, "visibility", "invalid");
  });
});

describe("enterprise groups: runners", () => {
  it("GET .../runners lists the runners with every field", async () => {
    const response = await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}/runners`);
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(2);
    expect(response.body.runners[0]).toEqual({
      id: 7,
      name: "enterprise-runner-7",
      os: "linux",
      status: "online",
      busy: false,
      ephemeral: false,
      version: expect.any(String),
      labels: LABELS,
      runner_group_id: ENTERPRISE_DEFAULT,
    });
    expect(response.body.runners[1]).toMatchObject({ id: 8, name: "enterprise-runner-8" });
  });

  it("GET .../runners pages with per_page", async () => {
    const response = await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}/runners?per_page=1`);
    expect(response.body.total_count).toBe(2);
    expect(response.body.runners.map((r: Json) => r.id)).toEqual([7]);
    expect(parseLink(response.headers.get("link")).next).toBeDefined();
  });

  it("PUT .../runners replaces the membership; runners left out return to the default group", async () => {
    const group = await createGroup(E, { name: "g", runners: [7] });
    const put = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners`, { body: { runners: [8] } });
    expect(put.status).toBe(204);
    expect(put.text).toBe("");
    expect(await runnerIdsOf(E, group.id)).toEqual([8]);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([7]);

    const both = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners`, {
      body: { runners: [7, 8] },
    });
    expect(both.status).toBe(204);
    expect(await runnerIdsOf(E, group.id)).toEqual([7, 8]);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([]);

    const none = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners`, { body: { runners: [] } });
    expect(none.status).toBe(204);
    expect(await runnerIdsOf(E, group.id)).toEqual([]);
    const back = await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}/runners`);
    expect(back.body.runners.map((r: Json) => r.runner_group_id)).toEqual([
      ENTERPRISE_DEFAULT,
      ENTERPRISE_DEFAULT,
    ]);
  });

  it("PUT .../runners refuses a missing runners (422 missing_field)", async () => {
    const group = await createGroup(E, { name: "g", runners: [7] });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners`, { body: {} });
    expect422(response, "runners", "missing_field");
    expect(await runnerIdsOf(E, group.id)).toEqual([7]);
  });

  it("PUT .../runners refuses organisation runners (422) and changes nothing", async () => {
    const group = await createGroup(E, { name: "g", runners: [7] });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners`, {
      body: { runners: [8, 1] },
    });
    expect422(response, "runners", "invalid");
    expect(await runnerIdsOf(E, group.id)).toEqual([7]);
    expect((await groupOfRunners("acme-eng"))[1]).toBe(ENG_DEFAULT);
  });

  it("PUT .../runners/{runner_id} adds one runner, moving it from the default group", async () => {
    const group = await createGroup(E, { name: "g" });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners/8`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await runnerIdsOf(E, group.id)).toEqual([8]);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([7]);
  });

  it("PUT .../runners/{runner_id} moves a runner out of another custom group", async () => {
    const first = await createGroup(E, { name: "first", runners: [7] });
    const second = await createGroup(E, { name: "second" });
    expect((await call(sandbox.emulator, "PUT", `${E}/${second.id}/runners/7`)).status).toBe(204);
    expect(await runnerIdsOf(E, first.id)).toEqual([]);
    expect(await runnerIdsOf(E, second.id)).toEqual([7]);
  });

  it.each([
    ["an organisation runner", 1],
    ["an unknown runner", 99],
  ])("PUT .../runners/{runner_id} answers 404 for %s", async (_label, id) => {
    const group = await createGroup(E, { name: "g" });
    const response = await call(sandbox.emulator, "PUT", `${E}/${group.id}/runners/${id}`);
    expect(response.status).toBe(404);
    expect(await runnerIdsOf(E, group.id)).toEqual([]);
  });

  it("DELETE .../runners/{runner_id} returns the runner to the default group", async () => {
    const group = await createGroup(E, { name: "g", runners: [7, 8] });
    const response = await call(sandbox.emulator, "DELETE", `${E}/${group.id}/runners/7`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await runnerIdsOf(E, group.id)).toEqual([8]);
    const home = await call(sandbox.emulator, "GET", `${E}/${ENTERPRISE_DEFAULT}/runners`);
    expect(home.body.runners.map((r: Json) => [r.id, r.runner_group_id])).toEqual([[7, ENTERPRISE_DEFAULT]]);
  });

  it("DELETE .../runners/{runner_id} answers 404 for a runner not in the group", async () => {
    const group = await createGroup(E, { name: "g", runners: [7] });
    expect((await call(sandbox.emulator, "DELETE", `${E}/${group.id}/runners/8`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${E}/${group.id}/runners/1`)).status).toBe(404);
    expect(await runnerIdsOf(E, group.id)).toEqual([7]);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([8]);
  });

  it("runner routes answer 404 for an unknown group", async () => {
    expect((await call(sandbox.emulator, "GET", `${E}/999/runners`)).status).toBe(404);
    expect((await call(sandbox.emulator, "PUT", `${E}/999/runners`, { body: { runners: [7] } })).status).toBe(
      404,
    );
    expect((await call(sandbox.emulator, "PUT", `${E}/999/runners/7`)).status).toBe(404);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([7, 8]);
  });
});

describe("enterprise groups: authentication (Authentication 5)", () => {
  const routes: Array<[string, string, unknown?]> = [
    ["GET", E],
    ["POST", E, { name: "x" }],
    ["GET", `${E}/${ENTERPRISE_DEFAULT}`],
    ["PATCH", `${E}/${ENTERPRISE_DEFAULT}`, { name: "x" }],
    ["DELETE", `${E}/${ENTERPRISE_DEFAULT}`],
    ["GET", `${E}/${ENTERPRISE_DEFAULT}/organizations`],
    ["PUT", `${E}/${ENTERPRISE_DEFAULT}/organizations`, { selected_organization_ids: [100] }],
    ["PUT", `${E}/${ENTERPRISE_DEFAULT}/organizations/100`],
    ["DELETE", `${E}/${ENTERPRISE_DEFAULT}/organizations/100`],
    ["GET", `${E}/${ENTERPRISE_DEFAULT}/runners`],
    ["PUT", `${E}/${ENTERPRISE_DEFAULT}/runners`, { runners: [7] }],
    ["PUT", `${E}/${ENTERPRISE_DEFAULT}/runners/7`],
    ["DELETE", `${E}/${ENTERPRISE_DEFAULT}/runners/7`],
  ];

  it.each(routes)(
    "a classic token without manage_runners:enterprise gets 403 on %s %s",
    async (method, path, body) => {
      const response = await call(sandbox.emulator, method, path, { token: TOKENS.owner, body });
      expect(response.status).toBe(403);
      expectErrorBody(response.body, /manage_runners:enterprise/);
      expect(response.headers.get("x-accepted-oauth-scopes")).toBe("manage_runners:enterprise");
    },
  );

  it.each(routes)("a fine-grained token is refused (403) on %s %s", async (method, path, body) => {
    const response = await call(sandbox.emulator, method, path, { token: TOKENS.fineGrained, body });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, "Resource not accessible by fine-grained personal access token");
  });

  it.each(routes)("an app installation token is refused (403) on %s %s", async (method, path, body) => {
    const response = await call(sandbox.emulator, method, path, { token: TOKENS.install, body });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, "Resource not accessible by integration");
  });

  it.each(routes)("no token gets 401 on %s %s", async (method, path, body) => {
    const response = await call(sandbox.emulator, method, path, { token: null, body });
    expect(response.status).toBe(401);
    expectErrorBody(response.body, "Requires authentication");
  });

  it("refused writes change nothing", async () => {
    for (const token of [TOKENS.owner, TOKENS.fineGrained, TOKENS.install, TOKENS.member]) {
      expect((await call(sandbox.emulator, "POST", E, { token, body: { name: "x" } })).status).toBe(403);
      expect(
        (await call(sandbox.emulator, "PUT", `${E}/1/runners`, { token, body: { runners: [] } })).status,
      ).toBe(403);
    }
    expect(await groupNames(E)).toEqual(["Default"]);
    expect(await runnerIdsOf(E, ENTERPRISE_DEFAULT)).toEqual([7, 8]);
  });

  it("an organisation member's classic token without the scope gets 403", async () => {
    const response = await call(sandbox.emulator, "GET", E, { token: TOKENS.member });
    expect(response.status).toBe(403);
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("manage_runners:enterprise");
  });

  it("an unknown token gets 401 Bad credentials", async () => {
    const response = await call(sandbox.emulator, "GET", E, { token: "svcp_nope" });
    expect(response.status).toBe(401);
    expectErrorBody(response.body, "Bad credentials");
  });

  it("the site administrator's classic token is accepted and its scopes are echoed", async () => {
    const response = await call(sandbox.emulator, "GET", E);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("manage_runners:enterprise");
    expect(response.headers.get("x-oauth-scopes")).toContain("manage_runners:enterprise");
  });
});

describe("organisation groups", () => {
  it("lists each organisation's own default group", async () => {
    const eng = await call(sandbox.emulator, "GET", O);
    expect(eng.status).toBe(200);
    expect(eng.body.total_count).toBe(1);
    expect(eng.body.runner_groups[0]).toMatchObject({
      id: ENG_DEFAULT,
      name: "Default",
      visibility: "all",
      default: true,
      runners_url: `${sandbox.emulator.url}${O}/${ENG_DEFAULT}/runners`,
      allows_public_repositories: false,
      restricted_to_workflows: false,
      selected_workflows: [],
    });
    expect(eng.body.runner_groups[0]).not.toHaveProperty("selected_repositories_url");
    const ops = await call(sandbox.emulator, "GET", OPS);
    expect(ops.body.runner_groups.map((g: Json) => [g.id, g.default])).toEqual([[OPS_DEFAULT, true]]);
  });

  it("keeps each organisation's groups apart", async () => {
    await createGroup(O, { name: "eng-group" });
    expect(await groupNames(O)).toEqual(["Default", "eng-group"]);
    expect(await groupNames(OPS)).toEqual(["Default"]);
    expect(await groupNames(E)).toEqual(["Default"]);
    const group = await createGroup(OPS, { name: "eng-group" });
    expect((await call(sandbox.emulator, "GET", `${O}/${group.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${E}/${group.id}`)).status).toBe(404);
  });

  it.each(["all", "selected", "private"])("creates a group of visibility %s", async (visibility) => {
    const group = await createGroup(O, { name: `vis-${visibility}`, visibility });
    expect(group).toMatchObject({
      id: FIRST_NEW_GROUP,
      name: `vis-${visibility}`,
      visibility,
      default: false,
      runners_url: `${sandbox.emulator.url}${O}/${group.id}/runners`,
      allows_public_repositories: false,
      restricted_to_workflows: false,
      selected_workflows: [],
    });
    if (visibility === "selected") {
      expect(group.selected_repositories_url).toBe(`${sandbox.emulator.url}${O}/${group.id}/repositories`);
    } else {
      expect(group).not.toHaveProperty("selected_repositories_url");
    }
    expect(group).not.toHaveProperty("selected_organizations_url");
    expect((await call(sandbox.emulator, "GET", `${O}/${group.id}`)).body).toEqual(group);
  });

  it("defaults visibility to all", async () => {
    const group = await createGroup(O, { name: "plain" });
    expect(group.visibility).toBe("all");
  });

  it("takes selected_repository_ids with visibility selected", async () => {
    const group = await createGroup(O, {
      name: "sel",
      visibility: "selected",
      selected_repository_ids: [1001, 1000],
    });
    const response = await call(sandbox.emulator, "GET", `${O}/${group.id}/repositories`);
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(2);
    const api = response.body.repositories.find((r: Json) => r.id === 1000);
    expect(api).toMatchObject({ id: 1000, name: "api", full_name: "acme-eng/api", private: true });
    expect(await repoIdsOf(O, group.id)).toEqual([1000, 1001]);
  });

  it("refuses repositories of another organisation (422) and creates nothing", async () => {
    const response = await call(sandbox.emulator, "POST", O, {
      body: { name: "sel", visibility: "selected", selected_repository_ids: [1000, 1002] },
    });
    expect422(response, "selected_repository_ids", "invalid");
    expect(response.body.errors[0].message).toContain("1002");
    expect(await groupNames(O)).toEqual(["Default"]);
  });

  it("refuses a duplicate name in the same organisation, case-insensitively", async () => {
    await createGroup(O, { name: "builds" });
    expect422(
      await call(sandbox.emulator, "POST", O, { body: { name: "BUILDS" } }),
      "name",
      "already_exists",
    );
    expect422(
      await call(sandbox.emulator, "POST", O, { body: { name: "DEFAULT" } }),
      "name",
      "already_exists",
    );
    expect(await groupNames(O)).toEqual(["Default", "builds"]);
  });

  it("refuses another organisation's runners in runners (422)", async () => {
    const response = await call(sandbox.emulator, "POST", O, { body: { name: "g", runners: [5] } });
    expect422(response, "runners", "invalid");
    expect(await groupOfRunners("acme-ops")).toEqual({ 5: OPS_DEFAULT, 6: OPS_DEFAULT });
  });

  // Same defect as the enterprise create: the group is stored before its runners are checked.
  it("creates no group when runners are refused (422), so a corrected retry succeeds", async () => {
    const response = await call(sandbox.emulator, "POST", O, { body: { name: "g", runners: [5] } });
    expect(response.status).toBe(422);
    expect(await groupNames(O)).toEqual(["Default"]);
    const retry = await call(sandbox.emulator, "POST", O, { body: { name: "g", runners: [1] } });
    expect(retry.status, retry.text).toBe(201);
  });

  it.each([
    ["a missing name", { visibility: "all" }, "name", "missing_field"],
    ["an unknown visibility", { name: "g", visibility: "internal" }, "visibility", "invalid"],
  ])("refuses %s", async (_label, body, field, code) => {
    expect422(await call(sandbox.emulator, "POST", O, { body }), field, code);
    expect(await groupNames(O)).toEqual(["Default"]);
  });

  it("PUT .../repositories replaces the repository list (204)", async () => {
    const group = await createGroup(O, {
      name: "sel",
      visibility: "selected",
      selected_repository_ids: [1000],
    });
    const put = await call(sandbox.emulator, "PUT", `${O}/${group.id}/repositories`, {
      body: { selected_repository_ids: [1001] },
    });
    expect(put.status).toBe(204);
    expect(put.text).toBe("");
    expect(await repoIdsOf(O, group.id)).toEqual([1001]);
  });

  it("PUT .../repositories refuses another organisation's repository (422) and keeps the list", async () => {
    const group = await createGroup(O, {
      name: "sel",
      visibility: "selected",
      selected_repository_ids: [1000],
    });
    const response = await call(sandbox.emulator, "PUT", `${O}/${group.id}/repositories`, {
      body: { selected_repository_ids: [1002] },
    });
    expect422(response, "selected_repository_ids", "invalid");
    expect(await repoIdsOf(O, group.id)).toEqual([1000]);
  });

  it("PUT .../repositories refuses a group not of visibility selected, or a missing list (422)", async () => {
    const priv = await createGroup(O, { name: "priv", visibility: "private" });
    expect422(
      await call(sandbox.emulator, "PUT", `${O}/${priv.id}/repositories`, {
        body: { selected_repository_ids: [1000] },
      }),
      "visibility",
      "invalid",
    );
    const sel = await createGroup(O, { name: "sel", visibility: "selected" });
    expect422(
      await call(sandbox.emulator, "PUT", `${O}/${sel.id}/repositories`, { body: {} }),
      "selected_repository_ids",
      "missing_field",
    );
  });

  it("PATCH resets omitted settings to their defaults and clears the repository list", async () => {
    const group = await createGroup(O, {
      name: "sel",
      visibility: "selected",
      selected_repository_ids: [1000],
      allows_public_repositories: true,
      restricted_to_workflows: true,
      selected_workflows: [WORKFLOW],
    });
    const response = await call(sandbox.emulator, "PATCH", `${O}/${group.id}`, { body: { name: "renamed" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: group.id,
      name: "renamed",
      visibility: "all",
      allows_public_repositories: false,
      restricted_to_workflows: false,
      selected_workflows: [],
    });
    expect(response.body).not.toHaveProperty("selected_repositories_url");
    expect(await repoIdsOf(O, group.id)).toEqual([]);
  });

  it("PATCH sets visibility private", async () => {
    const group = await createGroup(O, { name: "g" });
    const response = await call(sandbox.emulator, "PATCH", `${O}/${group.id}`, {
      body: { visibility: "private" },
    });
    expect(response.status).toBe(200);
    expect(response.body.visibility).toBe("private");
  });

  it("DELETE removes the group (204) and returns its runners to default group 2", async () => {
    const group = await createGroup(O, { name: "g", runners: [1, 3] });
    expect(await groupOfRunners("acme-eng")).toEqual({
      1: group.id,
      2: ENG_DEFAULT,
      3: group.id,
      4: ENG_DEFAULT,
    });
    const response = await call(sandbox.emulator, "DELETE", `${O}/${group.id}`);
    expect(response.status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${O}/${group.id}`)).status).toBe(404);
    expect(await groupOfRunners("acme-eng")).toEqual({
      1: ENG_DEFAULT,
      2: ENG_DEFAULT,
      3: ENG_DEFAULT,
      4: ENG_DEFAULT,
    });
  });

  it("refuses to delete the organisation's default group (422)", async () => {
    const response = await call(sandbox.emulator, "DELETE", `${O}/${ENG_DEFAULT}`);
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ resource: "RunnerGroup", code: "custom" });
    expect(await runnerIdsOf(O, ENG_DEFAULT)).toEqual([1, 2, 3, 4]);
  });

  it("answers 404 for an unknown organisation", async () => {
    expect((await call(sandbox.emulator, "GET", "/orgs/nope/actions/runner-groups")).status).toBe(404);
  });
});

describe("organisation group membership (table OG)", () => {
  it("GET OG lists the runners of the default group with every field", async () => {
    const response = await call(sandbox.emulator, "GET", `${O}/${ENG_DEFAULT}/runners`);
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(4);
    expect(response.body.runners.map((r: Json) => r.id)).toEqual([1, 2, 3, 4]);
    expect(response.body.runners[0]).toEqual({
      id: 1,
      name: "runner-1",
      os: "linux",
      status: "online",
      busy: false,
      ephemeral: false,
      version: expect.any(String),
      labels: LABELS,
      runner_group_id: ENG_DEFAULT,
    });
    expect(response.body.runners[3]).toMatchObject({ id: 4, status: "offline" });
  });

  it("GET OG pages with per_page and page", async () => {
    const response = await call(sandbox.emulator, "GET", `${O}/${ENG_DEFAULT}/runners?per_page=3&page=2`);
    expect(response.body.total_count).toBe(4);
    expect(response.body.runners.map((r: Json) => r.id)).toEqual([4]);
    const links = parseLink(response.headers.get("link"));
    expect(links.prev).toBeDefined();
    expect(links.next).toBeUndefined();
  });

  it("PUT OG replaces the membership (204); runners left out return to default group 2", async () => {
    const group = await createGroup(O, { name: "g" });
    const put = await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners`, {
      body: { runners: [1, 2] },
    });
    expect(put.status).toBe(204);
    expect(put.text).toBe("");
    expect(await runnerIdsOf(O, group.id)).toEqual([1, 2]);
    expect(await groupOfRunners("acme-eng")).toEqual({
      1: group.id,
      2: group.id,
      3: ENG_DEFAULT,
      4: ENG_DEFAULT,
    });

    const replace = await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners`, {
      body: { runners: [3] },
    });
    expect(replace.status).toBe(204);
    expect(await runnerIdsOf(O, group.id)).toEqual([3]);
    expect(await groupOfRunners("acme-eng")).toEqual({
      1: ENG_DEFAULT,
      2: ENG_DEFAULT,
      3: group.id,
      4: ENG_DEFAULT,
    });
    expect(await runnerIdsOf(O, ENG_DEFAULT)).toEqual([1, 2, 4]);
  });

  it("PUT OG refuses another organisation's runner (422) and changes nothing", async () => {
    const group = await createGroup(O, { name: "g", runners: [1] });
    const response = await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners`, {
      body: { runners: [2, 5] },
    });
    expect422(response, "runners", "invalid");
    expect(response.body.errors[0].message).toContain("5");
    expect(await runnerIdsOf(O, group.id)).toEqual([1]);
    expect(await groupOfRunners("acme-ops")).toEqual({ 5: OPS_DEFAULT, 6: OPS_DEFAULT });
  });

  it("PUT OG refuses a missing runners (422 missing_field)", async () => {
    const group = await createGroup(O, { name: "g" });
    expect422(
      await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners`, { body: {} }),
      "runners",
      "missing_field",
    );
  });

  it("PUT OG/{runner_id} moves the runner from its current group: it is in exactly one group", async () => {
    const a = await createGroup(O, { name: "a", runners: [1, 2] });
    const b = await createGroup(O, { name: "b" });
    const response = await call(sandbox.emulator, "PUT", `${O}/${b.id}/runners/1`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await runnerIdsOf(O, a.id)).toEqual([2]);
    expect(await runnerIdsOf(O, b.id)).toEqual([1]);
    expect(await runnerIdsOf(O, ENG_DEFAULT)).toEqual([3, 4]);
    expect(await groupOfRunners("acme-eng")).toEqual({ 1: b.id, 2: a.id, 3: ENG_DEFAULT, 4: ENG_DEFAULT });

    // From the default group too, and idempotently.
    expect((await call(sandbox.emulator, "PUT", `${O}/${b.id}/runners/4`)).status).toBe(204);
    expect((await call(sandbox.emulator, "PUT", `${O}/${b.id}/runners/4`)).status).toBe(204);
    expect(await groupOfRunners("acme-eng")).toEqual({ 1: b.id, 2: a.id, 3: ENG_DEFAULT, 4: b.id });
    const all = [
      ...(await runnerIdsOf(O, ENG_DEFAULT)),
      ...(await runnerIdsOf(O, a.id)),
      ...(await runnerIdsOf(O, b.id)),
    ].sort();
    expect(all).toEqual([1, 2, 3, 4]);
  });

  it("PUT OG/{runner_id} answers 404 for another organisation's runner", async () => {
    const group = await createGroup(O, { name: "g" });
    expect((await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners/5`)).status).toBe(404);
    expect((await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners/7`)).status).toBe(404);
    expect(await runnerIdsOf(O, group.id)).toEqual([]);
    expect((await groupOfRunners("acme-ops"))[5]).toBe(OPS_DEFAULT);
  });

  it("DELETE OG/{runner_id} returns the runner to default group 2 (204)", async () => {
    const group = await createGroup(O, { name: "g", runners: [2, 3] });
    const response = await call(sandbox.emulator, "DELETE", `${O}/${group.id}/runners/2`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await runnerIdsOf(O, group.id)).toEqual([3]);
    expect((await groupOfRunners("acme-eng"))[2]).toBe(ENG_DEFAULT);
    expect(await runnerIdsOf(O, ENG_DEFAULT)).toEqual([1, 2, 4]);
  });

  it("DELETE OG/{runner_id} answers 404 for a runner not in the group", async () => {
    const group = await createGroup(O, { name: "g", runners: [2] });
    expect((await call(sandbox.emulator, "DELETE", `${O}/${group.id}/runners/1`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${O}/${group.id}/runners/5`)).status).toBe(404);
    expect(await groupOfRunners("acme-eng")).toEqual({
      1: ENG_DEFAULT,
      2: group.id,
      3: ENG_DEFAULT,
      4: ENG_DEFAULT,
    });
  });

  it("OG routes answer 404 for an unknown group", async () => {
    expect((await call(sandbox.emulator, "GET", `${O}/999/runners`)).status).toBe(404);
    expect((await call(sandbox.emulator, "PUT", `${O}/999/runners`, { body: { runners: [1] } })).status).toBe(
      404,
    );
    expect((await call(sandbox.emulator, "PUT", `${O}/999/runners/1`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${O}/999/runners/1`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${O}/${OPS_DEFAULT}/runners`)).status).toBe(404);
  });
});

describe("organisation groups: authorisation", () => {
  it.each([
    ["GET", O, undefined],
    ["POST", O, { name: "x" }],
    ["GET", `${O}/${ENG_DEFAULT}/runners`, undefined],
    ["PUT", `${O}/${ENG_DEFAULT}/runners`, { runners: [1] }],
    ["PUT", `${O}/${ENG_DEFAULT}/runners/1`, undefined],
    ["GET", "/orgs/acme-eng/actions/runners", undefined],
  ])("an organisation member who is not an owner gets 403 on %s %s", async (method, path, body) => {
    const response = await call(sandbox.emulator, method, path, { token: TOKENS.member, body });
    expect(response.status).toBe(403);
    expectErrorBody(response.body);
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("admin:org");
  });

  it("an owner of acme-eng (admin:org) manages acme-eng's groups and membership", async () => {
    const token = TOKENS.owner;
    const group = await createGroup(O, { name: "olivia" }, token);
    const put = await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners`, {
      token,
      body: { runners: [1] },
    });
    expect(put.status).toBe(204);
    const list = await call(sandbox.emulator, "GET", `${O}/${group.id}/runners`, { token });
    expect(list.status).toBe(200);
    expect(list.body.runners.map((r: Json) => r.id)).toEqual([1]);
    expect((await call(sandbox.emulator, "DELETE", `${O}/${group.id}/runners/1`, { token })).status).toBe(
      204,
    );
    expect((await call(sandbox.emulator, "DELETE", `${O}/${group.id}`, { token })).status).toBe(204);
  });

  it.each([
    ["GET", OPS, undefined],
    ["POST", OPS, { name: "x" }],
    ["GET", `${OPS}/${OPS_DEFAULT}/runners`, undefined],
    ["PUT", `${OPS}/${OPS_DEFAULT}/runners`, { runners: [5] }],
    ["GET", "/orgs/acme-ops/actions/runners", undefined],
  ])("the same owner gets 403 on acme-ops: %s %s", async (method, path, body) => {
    const response = await call(sandbox.emulator, method, path, { token: TOKENS.owner, body });
    expect(response.status).toBe(403);
    expectErrorBody(response.body);
  });

  it("refused writes on acme-ops change nothing", async () => {
    await call(sandbox.emulator, "POST", OPS, { token: TOKENS.owner, body: { name: "x" } });
    await call(sandbox.emulator, "PUT", `${OPS}/${OPS_DEFAULT}/runners`, {
      token: TOKENS.owner,
      body: { runners: [] },
    });
    expect(await groupNames(OPS)).toEqual(["Default"]);
    expect(await runnerIdsOf(OPS, OPS_DEFAULT)).toEqual([5, 6]);
  });

  it("a fine-grained token with the self-hosted runners permission is accepted on organisation groups", async () => {
    const response = await call(sandbox.emulator, "PUT", `${O}/${ENG_DEFAULT}/runners/1`, {
      token: TOKENS.fineGrained,
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("x-accepted-service-permissions")).toBe(
      "organization_self_hosted_runners=write",
    );
  });

  it("an app installation token without the self-hosted runners permission gets 403", async () => {
    const response = await call(sandbox.emulator, "GET", O, { token: TOKENS.install });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, "Resource not accessible by integration");
    expect(response.headers.get("x-accepted-service-permissions")).toBe(
      "organization_self_hosted_runners=read",
    );
  });

  it("no token gets 401", async () => {
    expect((await call(sandbox.emulator, "GET", O, { token: null })).status).toBe(401);
    expect(
      (
        await call(sandbox.emulator, "PUT", `${O}/${ENG_DEFAULT}/runners`, {
          token: null,
          body: { runners: [] },
        })
      ).status,
    ).toBe(401);
    expect(await runnerIdsOf(O, ENG_DEFAULT)).toEqual([1, 2, 3, 4]);
  });
});

describe("GET /orgs/{org}/actions/runners", () => {
  it("lists acme-eng's four runners with their fields; runner 4 is offline", async () => {
    const response = await call(sandbox.emulator, "GET", "/orgs/acme-eng/actions/runners");
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(4);
    expect(response.body.runners.map((r: Json) => [r.id, r.name, r.status])).toEqual([
      [1, "runner-1", "online"],
      [2, "runner-2", "online"],
      [3, "runner-3", "online"],
      [4, "runner-4", "offline"],
    ]);
    for (const runner of response.body.runners) {
      expect(runner).toMatchObject({
        os: "linux",
        busy: false,
        ephemeral: false,
        labels: LABELS,
        runner_group_id: ENG_DEFAULT,
      });
      expect(typeof runner.version).toBe("string");
    }
  });

  it("lists acme-ops's runners in its own default group", async () => {
    const response = await call(sandbox.emulator, "GET", "/orgs/ACME-OPS/actions/runners");
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(2);
    expect(response.body.runners.map((r: Json) => [r.id, r.runner_group_id])).toEqual([
      [5, OPS_DEFAULT],
      [6, OPS_DEFAULT],
    ]);
  });

  it("pages with per_page", async () => {
    const response = await call(sandbox.emulator, "GET", "/orgs/acme-eng/actions/runners?per_page=2");
    expect(response.body.total_count).toBe(4);
    expect(response.body.runners.map((r: Json) => r.id)).toEqual([1, 2]);
    const links = parseLink(response.headers.get("link"));
    expect(new URL(links.next as string).searchParams.get("page")).toBe("2");
  });

  it("shows a runner's new group after a move", async () => {
    const group = await createGroup(O, { name: "g" });
    await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners/4`);
    expect((await groupOfRunners("acme-eng"))[4]).toBe(group.id);
  });

  it("answers 404 for an unknown organisation", async () => {
    expect((await call(sandbox.emulator, "GET", "/orgs/nope/actions/runners")).status).toBe(404);
  });
});

describe("request log", () => {
  it("records runner group routes with their templates", async () => {
    expect((await control(sandbox.emulator, "DELETE", "/requests")).status).toBe(204);
    const group = await createGroup(O, { name: "g" });
    await call(sandbox.emulator, "PUT", `${O}/${group.id}/runners`, { body: { runners: [1] } });
    await call(sandbox.emulator, "DELETE", `${O}/${group.id}/runners/1`);
    const ent = await createGroup(E, { name: "e", visibility: "selected" });
    await call(sandbox.emulator, "PUT", `${E}/${ent.id}/organizations/100`);
    await call(sandbox.emulator, "GET", `${E}/${ent.id}`);
    await call(sandbox.emulator, "GET", `${E}/999`);
    await call(sandbox.emulator, "GET", "/orgs/acme-eng/actions/runners");

    const { requests, counts } = (await control(sandbox.emulator, "GET", "/requests")).body;
    expect(counts.byRoute).toEqual({
      "POST /orgs/{org}/actions/runner-groups": 1,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      "DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/runners/{runner_id}": 1,
      "POST /enterprises/{enterprise}/actions/runner-groups": 1,
      "PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations/{org_id}": 1,
      "GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}": 2,
      "GET /orgs/{org}/actions/runners": 1,
    });
    expect(counts.total).toBe(8);
    expect(requests.map((r: Json) => [r.method, r.path, r.status])).toEqual([
      ["POST", O, 201],
      ["PUT", `${O}/${group.id}/runners`, 204],
      ["DELETE", `${O}/${group.id}/runners/1`, 204],
      ["POST", E, 201],
      ["PUT", `${E}/${ent.id}/organizations/100`, 204],
      ["GET", `${E}/${ent.id}`, 200],
      ["GET", `${E}/999`, 404],
      ["GET", "/orgs/acme-eng/actions/runners", 200],
    ]);
  });
});
