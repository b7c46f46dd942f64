/**
 * Self-hosted runner groups: the enterprise routes of the spec's table E (with the organisation
 * and runner sub-routes from notes/api.md), organisation groups as the public API has them, the
 * runner membership routes of table OG, and the runner lists.
 *
 * Every runner is in exactly one group; a runner removed from a group returns to its owner's
 * default group; a default group cannot be deleted.
 */

import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, APP_TOKENS, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { RunnerRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, missingField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { findOrg } from "../../core/lookup";
import { orgSummary } from "../../core/render";
import type { EmulatorState, Store } from "../../core/store";
import { repoSummary } from "../git/repository";
import {
  assertUniqueName,
  assignRunner,
  deleteGroup,
  groupIdOfRunner,
  invalid,
  ownRunners,
  RESOURCE,
  releaseRunner,
  requireSelected,
  runnersIn,
  type Scope,
  setRunners,
  settings,
} from "./groups";
import type { StoredRunnerGroup } from "./state";
import { newGroupId } from "./state";

const ENTERPRISE: AccessRule = {
  scopes: ["manage_runners:enterprise"],
  refuse: ["fine_grained", ...APP_TOKENS],
};
const ORG_READ: AccessRule = {
  scopes: ["admin:org"],
  permission: ["organization_self_hosted_runners", "read"],
};
const ORG_WRITE: AccessRule = {
  scopes: ["admin:org"],
  permission: ["organization_self_hosted_runners", "write"],
};

const E = ROUTES.enterpriseRunnerGroups;
const O = ROUTES.orgRunnerGroups;

export function runnerGroupRoutes(app: Hono<ServerEnv>): void {
  for (const scope of ["enterprise", "org"] as const) {
    const R = scope === "enterprise" ? E : O;

    app.get(R.list.pattern, access(scope, "read"), (c) => {
      const { state, owner } = ownerContext(c, scope);
      let groups = state.runnerGroups.filter((g) => g.scope === scope && g.owner === owner);
      const visibleTo = c.req.query("visible_to_organization");
      if (scope === "enterprise" && visibleTo) {
        const org = findOrg(state, visibleTo);
        groups = groups.filter(
          (g) => org && (g.visibility === "all" || g.selectedOrganizationIds.includes(org.id)),
        );
      }
      return c.json({
        total_count: groups.length,
        runner_groups: paginate(c, groups).map((g) => render(c, g)),
      });
    });

    app.post(R.create.pattern, access(scope, "write"), async (c) => {
      const { store, state, owner } = ownerContext(c, scope);
      const body = await readBody(c);
      const name = parseName(body.name, true) as string;
      assertUniqueName(state, scope, owner, name, undefined);
      const group: StoredRunnerGroup = {
        id: newGroupId(store.state),
        scope,
        owner,
        name,
        default: false,
        ...settings(scope, body, undefined),
      };
      if (group.visibility === "selected") {
        if (scope === "enterprise") {
          group.selectedOrganizationIds = parseOrgIds(state, owner, body.selected_organization_ids ?? []);
        } else {
          group.selectedRepositoryIds = parseRepoIds(state, owner, body.selected_repository_ids ?? []);
        }
      }
      // Validate everything before the first change, so a refused request changes nothing.
      const runners = body.runners === undefined ? undefined : parseRunnerIds(state, group, body.runners);
      state.runnerGroups.push(group);
      if (runners !== undefined) setRunners(state, group, runners);
      return c.json(render(c, group), 201);
    });

    app.get(R.get.pattern, access(scope, "read"), (c) => c.json(render(c, groupContext(c, scope).group)));

    app.patch(R.update.pattern, access(scope, "write"), async (c) => {
      const { state, owner, group } = groupContext(c, scope);
      const body = await readBody(c);
      const name = parseName(body.name, false);
      if (name !== undefined) assertUniqueName(state, scope, owner, name, group.id);
      // Omitted settings take their documented defaults (spec, table E, PATCH).
      const next = settings(scope, body, group);
      Object.assign(group, next, name === undefined ? {} : { name });
      if (group.visibility !== "selected") {
        group.selectedOrganizationIds = [];
        group.selectedRepositoryIds = [];
      }
      return c.json(render(c, group));
    });

    app.delete(R.delete.pattern, access(scope, "write"), (c) => {
      const { state, group } = groupContext(c, scope);
      deleteGroup(state, group);
      return c.body(null, 204);
    });

    app.get(R.runners.pattern, access(scope, "read"), (c) => {
      const { state, group } = groupContext(c, scope);
      const runners = runnersIn(state, group);
      return c.json({
        total_count: runners.length,
        runners: paginate(c, runners).map((r) => renderRunner(state, r)),
      });
    });

    app.put(R.setRunners.pattern, access(scope, "write"), async (c) => {
      const { state, group } = groupContext(c, scope);
      setRunners(state, group, parseRunnerIds(state, group, await requiredField(c, "runners")));
      return c.body(null, 204);
    });

    app.put(R.addRunner.pattern, access(scope, "write"), (c) => {
      const { state, group } = groupContext(c, scope);
      const id = pathId(c, "runner_id");
      // A runner of another owner, or none at all, is not found.
      if (!ownRunners(state, group).some((r) => r.id === id)) throw notFound();
      assignRunner(state, id, group);
      return c.body(null, 204);
    });

    app.delete(R.removeRunner.pattern, access(scope, "write"), (c) => {
      const { state, group } = groupContext(c, scope);
      const id = pathId(c, "runner_id");
      if (!releaseRunner(state, group, id)) throw notFound();
      return c.body(null, 204);
    });
  }

  // Organisation access of enterprise groups.
  app.get(E.organizations.pattern, access("enterprise", "read"), (c) => {
    const { state, group } = groupContext(c, "enterprise");
    const orgs = state.fixture.orgs.filter((o) => group.selectedOrganizationIds.includes(o.id));
    return c.json({
      total_count: orgs.length,
      organizations: paginate(c, orgs).map((o) => orgSummary(c, o)),
    });
  });

  app.put(E.setOrganizations.pattern, access("enterprise", "write"), async (c) => {
    const { state, owner, group } = groupContext(c, "enterprise");
    requireSelected(group);
    const ids = await requiredField(c, "selected_organization_ids");
    group.selectedOrganizationIds = parseOrgIds(state, owner, ids);
    return c.body(null, 204);
  });

  app.put(E.addOrganization.pattern, access("enterprise", "write"), (c) => {
    const { state, owner, group } = groupContext(c, "enterprise");
    const orgId = pathId(c, "org_id");
    requireSelected(group);
    const [id] = parseOrgIds(state, owner, [orgId]);
    if (id !== undefined && !group.selectedOrganizationIds.includes(id))
      group.selectedOrganizationIds.push(id);
    return c.body(null, 204);
  });

  app.delete(E.removeOrganization.pattern, access("enterprise", "write"), (c) => {
    const { group } = groupContext(c, "enterprise");
    const id = pathId(c, "org_id");
    requireSelected(group);
    group.selectedOrganizationIds = group.selectedOrganizationIds.filter((o) => o !== id);
    return c.body(null, 204);
  });

  // Repository access of organisation groups.
  app.get(O.repositories.pattern, access("org", "read"), (c) => {
    const { state, group } = groupContext(c, "org");
    const repos = state.fixture.repos.filter((r) => group.selectedRepositoryIds.includes(r.id));
    return c.json({
      total_count: repos.length,
      // A group's repositories belong to its organisation: each is shown with that owner.
      repositories: paginate(c, repos).flatMap((r) => {
        const owner = findOrg(state, r.owner);
        return owner ? [repoSummary(c, r, owner)] : [];
      }),
    });
  });

  app.put(O.setRepositories.pattern, access("org", "write"), async (c) => {
    const { state, owner, group } = groupContext(c, "org");
    requireSelected(group);
    const ids = await requiredField(c, "selected_repository_ids");
    group.selectedRepositoryIds = parseRepoIds(state, owner, ids);
    return c.body(null, 204);
  });

  // Runners of an organisation.
  app.get(ROUTES.runners.listOrg.pattern, access("org", "read"), (c) => {
    const { state, owner } = ownerContext(c, "org");
    const runners = state.fixture.runners.filter((r) => r.org === owner);
    return c.json({
      total_count: runners.length,
      runners: paginate(c, runners).map((r) => renderRunner(state, r)),
    });
  });
}

/** The guard of a route: enterprise routes refuse app and fine-grained tokens (spec, table E). */
function access(scope: Scope, level: "read" | "write") {
  return guard(scope === "enterprise" ? ENTERPRISE : level === "read" ? ORG_READ : ORG_WRITE);
}

/** The owner (enterprise or organisation) the caller must own; 404 when unknown, 403 when not owner. */
function ownerContext(c: Context<ServerEnv>, scope: Scope) {
  const caller = callerOf(c);
  const store: Store = c.get("store");
  const state = store.state;
  if (scope === "enterprise") {
    const slug = (c.req.param("enterprise") ?? "").toLowerCase();
    const enterprise = state.fixture.enterprises.find((e) => e.slug === slug);
    if (!enterprise) throw notFound();
    if (!caller.user || !(caller.user.siteAdmin || enterprise.owners.includes(caller.user.login))) {
      throw forbidden("Must be an enterprise owner to manage runner groups");
    }
    return { store, state, owner: enterprise.slug };
  }
  const org = findOrg(state, c.req.param("org") ?? "");
  if (!org) throw notFound();
  if (orgRole(caller, org) !== "admin")
    throw forbidden("Must be an organization owner to manage runner groups");
  return { store, state, owner: org.login };
}

function groupContext(c: Context<ServerEnv>, scope: Scope) {
  const ctx = ownerContext(c, scope);
  const id = pathId(c, "runner_group_id");
  const group = ctx.state.runnerGroups.find((g) => g.scope === scope && g.owner === ctx.owner && g.id === id);
  if (!group) throw notFound();
  return { ...ctx, group };
}

/** Reads the body of a replace route and returns its one required field. */
async function requiredField(c: Context<ServerEnv>, field: string): Promise<unknown> {
  const body = await readBody(c);
  if (body[field] === undefined) throw missingField(RESOURCE, field);
  return body[field];
}

function parseName(raw: unknown, required: boolean): string | undefined {
  if (raw === undefined && !required) return undefined;
  if (raw === undefined) throw missingField(RESOURCE, "name");
  if (typeof raw !== "string" || raw.trim() === "") throw invalid("name", "name must be a non-empty string");
  return raw;
}

function parseIds(raw: unknown, field: string): number[] {
  if (!Array.isArray(raw) || raw.some((v) => !Number.isInteger(v) || (v as number) <= 0)) {
    throw invalid(field, `${field} must be an array of positive integers`);
  }
  return [...new Set(raw as number[])];
}

/** Ids of `field` that must all be among `known` (`what` names them in the error). */
function parseKnownIds(raw: unknown, field: string, known: Array<{ id: number }>, what: string): number[] {
  const ids = parseIds(raw, field);
  const knownIds = new Set(known.map((k) => k.id));
  const unknown = ids.filter((id) => !knownIds.has(id));
  if (unknown.length > 0) throw invalid(field, `not ${what}: ${unknown.join(", ")}`);
  return ids;
}

function parseOrgIds(state: EmulatorState, enterprise: string, raw: unknown): number[] {
  const orgs = state.fixture.orgs.filter((o) => o.enterprise === enterprise);
  return parseKnownIds(raw, "selected_organization_ids", orgs, `organizations of ${enterprise}`);
}

function parseRepoIds(state: EmulatorState, org: string, raw: unknown): number[] {
  const repos = state.fixture.repos.filter((r) => r.owner === org);
  return parseKnownIds(raw, "selected_repository_ids", repos, `repositories of ${org}`);
}

/** Runner ids that may join the group: the owner's own runners. */
function parseRunnerIds(state: EmulatorState, group: StoredRunnerGroup, raw: unknown): number[] {
  return parseKnownIds(raw, "runners", ownRunners(state, group), `runners of ${group.owner}`);
}

function render(c: Context<ServerEnv>, group: StoredRunnerGroup): Record<string, unknown> {
  const base =
    group.scope === "enterprise"
      ? urlOf(c, ROUTES.enterpriseRunnerGroups.get, { enterprise: group.owner, runner_group_id: group.id })
      : urlOf(c, ROUTES.orgRunnerGroups.get, { org: group.owner, runner_group_id: group.id });
  const selected = group.visibility === "selected";
  return {
    id: group.id,
    name: group.name,
    visibility: group.visibility,
    default: group.default,
    ...(selected && group.scope === "enterprise"
      ? { selected_organizations_url: `${base}/organizations` }
      : {}),
    ...(selected && group.scope === "org" ? { selected_repositories_url: `${base}/repositories` } : {}),
    runners_url: `${base}/runners`,
    ...(group.scope === "org" ? { inherited: false } : {}),
    allows_public_repositories: group.allowsPublicRepositories,
    restricted_to_workflows: group.restrictedToWorkflows,
    selected_workflows: group.selectedWorkflows,
    workflow_restrictions_read_only: false,
  };
}

function renderRunner(state: EmulatorState, runner: RunnerRecord): Record<string, unknown> {
  return {
    id: runner.id,
    name: runner.name,
    os: runner.os,
    status: runner.status,
    busy: runner.busy,
    ephemeral: runner.ephemeral,
    version: "2.330.0",
    runner_group_id: groupIdOfRunner(state, runner.id),
    labels: runner.labels.map((name, i) => ({ id: i + 1, name, type: "read-only" })),
  };
}
