/**
 * Custom deployment protection rules: every route of the spec's table P, on the environments of
 * `places.ts` (public reads, writes by the repository's admins).
 */

import type { Context, Hono } from "hono";
import { AVAILABLE_INTEGRATIONS_KEY, ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { notFound, paginate, pathId, readBody } from "../../core/http";
import {
  administeredEnvironment,
  type EnvironmentWhere,
  PUBLIC_READ,
  readableEnvironment,
  WRITE,
} from "./places";
import { availableApps, enableIntegration, renderApp, renderRule, rulesOf } from "./rules";
import type { StoredProtectionRule } from "./state";

const APPS: AccessRule = { scopes: ["repo"], permission: ["administration", "read"] };

const P = ROUTES.protectionRules;

export function protectionRuleRoutes(app: Hono<ServerEnv>): void {
  app.get(P.list.pattern, guard(PUBLIC_READ), (c) => {
    const { state, repo, environment } = readableEnvironment(c);
    const rules = rulesOf(state, repo, environment.name);
    return c.json({
      total_count: rules.length,
      custom_deployment_protection_rules: rules.map((r) => renderRule(c, state, r)),
    });
  });

  app.post(P.create.pattern, guard(WRITE), async (c) => {
    const { store, state, repo, environment } = administeredEnvironment(c);
    const body = await readBody(c);
    const rule = enableIntegration(store, repo, environment.name, body.integration_id);
    return c.json(renderRule(c, state, rule), 201);
  });

  // Registered before `/:protection_rule_id`, which would otherwise see "apps" as an id.
  app.get(P.apps.pattern, guard(APPS), (c) => {
    const { state, repo } = administeredEnvironment(c);
    const apps = availableApps(state, repo);
    return c.json([
      { total_count: apps.length },
      { [AVAILABLE_INTEGRATIONS_KEY]: paginate(c, apps).map((a) => renderApp(c, a)) },
    ]);
  });

  app.get(P.get.pattern, guard(PUBLIC_READ), (c) => {
    const where = readableEnvironment(c);
    return c.json(renderRule(c, where.state, findRule(c, where)));
  });

  app.delete(P.delete.pattern, guard(WRITE), (c) => {
    const where = administeredEnvironment(c);
    const rule = findRule(c, where);
    where.state.protectionRules = where.state.protectionRules.filter((r) => r !== rule);
    return c.body(null, 204);
  });
}

function findRule(c: Context<ServerEnv>, where: EnvironmentWhere): StoredProtectionRule {
  const id = pathId(c, "protection_rule_id");
  const rule = rulesOf(where.state, where.repo, where.environment.name).find((r) => r.id === id);
  if (!rule) throw notFound();
  return rule;
}
