/**
 * Custom deployment protection rules: every route of the spec's table P. `environment_name` arrives
 * URL-encoded (`release%2Feu`); hono matches the encoded segment and decodes the parameter.
 *
 * - The list and a single rule are public: anyone sees them on a public repository; on a private
 *   one the caller must see the repository (a member, or the app installed on its owner) with a
 *   token holding `repo` or Actions read, else 404, which hides the repository.
 * - Enabling and deleting a rule, and listing the apps available, are for the repository's admins
 *   (`repo`; Administration write, or read for the apps); anyone else gets 404, as on other
 *   repository administration routes.
 */

import type { Context, Hono } from "hono";
import { AVAILABLE_INTEGRATIONS_KEY, ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { adminRepo, readableRepo } from "../../core/lookup";
import { nodeId } from "../../core/render";
import type { EmulatorState } from "../../core/store";
import { availableApps, enableIntegration, findEnvironment, renderApp, renderRule, rulesOf } from "./rules";
import type { StoredProtectionRule } from "./state";

const READ: AccessRule = { scopes: ["repo"], permission: ["actions", "read"] };
const PUBLIC_READ: AccessRule = { ...READ, public: true };
const APPS: AccessRule = { scopes: ["repo"], permission: ["administration", "read"] };
const WRITE: AccessRule = { scopes: ["repo"], permission: ["administration", "write"] };

/** Environments are fixture data: they carry the time the fixture was made. */
const FIXTURE_TIME = "2026-01-01T00:00:00Z";

const P = ROUTES.protectionRules;

export function protectionRuleRoutes(app: Hono<ServerEnv>): void {
  // The spec's excerpt does not show it; the platform lists a repository's environments to whoever
  // may read the repository, as `{total_count, environments}`, paginated.
  app.get(P.environments.pattern, guard(PUBLIC_READ), (c) => {
    const state = c.get("store").state;
    const owner = c.req.param("owner");
    const { repo } = readableRepo(state, c.get("caller"), owner, c.req.param("repo"), READ);
    const url = urlOf(c, ROUTES.protectionRules.environments, { owner: repo.owner, repo: repo.name });
    const all = repo.environments.map((name, i) => ({
      // Environment ids are not stored: derived from the repository's id and the fixture's order.
      id: repo.id * 1000 + i + 1,
      node_id: nodeId("Environment", repo.id * 1000 + i + 1),
      name,
      url: `${url}/${encodeURIComponent(name)}`,
      html_url: `${new URL(c.req.url).origin}/${repo.owner}/${repo.name}/deployments/activity_log?environments_filter=${encodeURIComponent(name)}`,
      created_at: FIXTURE_TIME,
      updated_at: FIXTURE_TIME,
    }));
    return c.json({ total_count: all.length, environments: paginate(c, all) });
  });

  app.get(P.list.pattern, guard(PUBLIC_READ), (c) => {
    const { state, repo, environment } = readable(c);
    const rules = rulesOf(state, repo, environment);
    return c.json({
      total_count: rules.length,
      custom_deployment_protection_rules: rules.map((r) => renderRule(c, state, r)),
    });
  });

  app.post(P.create.pattern, guard(WRITE), async (c) => {
    const { state, repo, environment } = administered(c);
    const body = await readBody(c);
    const rule = enableIntegration(c.get("store"), repo, environment, body.integration_id);
    return c.json(renderRule(c, state, rule), 201);
  });

  // Registered before `/:protection_rule_id`, which would otherwise see "apps" as an id.
  app.get(P.apps.pattern, guard(APPS), (c) => {
    const { state, repo } = administered(c);
    const apps = availableApps(state, repo);
    return c.json([
      { total_count: apps.length },
      { [AVAILABLE_INTEGRATIONS_KEY]: paginate(c, apps).map((a) => renderApp(c, a)) },
    ]);
  });

  app.get(P.get.pattern, guard(PUBLIC_READ), (c) => {
    const where = readable(c);
    return c.json(renderRule(c, where.state, findRule(c, where)));
  });

  app.delete(P.delete.pattern, guard(WRITE), (c) => {
    const where = administered(c);
    const rule = findRule(c, where);
    where.state.protectionRules = where.state.protectionRules.filter((r) => r !== rule);
    return c.body(null, 204);
  });
}

interface Where {
  state: EmulatorState;
  repo: RepoRecord;
  environment: string;
}

/** The environment as the caller may read it (public repositories: anyone); else 404. */
function readable(c: Context<ServerEnv>): Where {
  const state = c.get("store").state;
  const owner = c.req.param("owner") ?? "";
  const { repo } = readableRepo(state, c.get("caller"), owner, c.req.param("repo") ?? "", READ);
  return { state, repo, environment: environmentOf(c, repo) };
}

/** The environment of a repository the caller administers; else 404. */
function administered(c: Context<ServerEnv>): Where {
  const state = c.get("store").state;
  const repo = adminRepo(state, callerOf(c), c.req.param("owner") ?? "", c.req.param("repo") ?? "");
  return { state, repo, environment: environmentOf(c, repo) };
}

function environmentOf(c: Context<ServerEnv>, repo: RepoRecord): string {
  const environment = findEnvironment(repo, c.req.param("environment_name") ?? "");
  if (!environment) throw notFound();
  return environment;
}

function findRule(c: Context<ServerEnv>, where: Where): StoredProtectionRule {
  const id = pathId(c, "protection_rule_id");
  const rule = rulesOf(where.state, where.repo, where.environment).find((r) => r.id === id);
  if (!rule) throw notFound();
  return rule;
}
