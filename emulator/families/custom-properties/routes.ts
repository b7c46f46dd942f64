/**
 * Custom property values (spec, endpoints "Organization custom property values"; repository values
 * as the platform's public REST API has them, the PATCH in the permission matrix under repository
 * "Custom properties").
 *
 * - `/organizations/{org}/org-properties/values` exists only in API version 2026-03-10, for
 *   organisations that belong to an enterprise (others: 404, "feature not enabled"), against the
 *   enterprise's property definitions; organisation admins only (403 otherwise).
 * - `/repos/{owner}/{repo}/properties/values`: anyone who can see the repository reads (public for
 *   public repositories); its admins write, against the organisation's repository properties.
 *
 * GET lists the properties that have a value; PATCH sets only the properties it names (null
 * removes one) and answers 204.
 */

import type { Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { Caller, ServerEnv } from "../../core/context";
import type { OrgRecord, PropertyDefinition } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, notFound, readBody } from "../../core/http";
import { findOrg, pathAdminRepo, readableRepo, repoKey } from "../../core/lookup";
import type { EmulatorState } from "../../core/store";
import { applyUpdates, parseUpdates, valuesOf } from "./values";

const ORG_PERMISSION = "custom_properties_for_organizations";
/** The organisation routes exist in API version 2026-03-10 only (the route table declares it). */
const ORG_READ: AccessRule = { scopes: ["read:org"], permission: [ORG_PERMISSION, "read"] };
const ORG_WRITE: AccessRule = { scopes: ["admin:org"], permission: [ORG_PERMISSION, "write"] };
/** Reading a repository's values needs what reading the repository needs (Metadata read); public. */
const REPO_READ: AccessRule = { permission: ["metadata", "read"], public: true };
const REPO_WRITE: AccessRule = { scopes: ["repo"], permission: ["repository_custom_properties", "write"] };

const V = ROUTES.propertyValues;

export function propertyValueRoutes(app: Hono<ServerEnv>): void {
  app.get(V.org.pattern, guard(ORG_READ), (c) => {
    const state = c.get("store").state;
    const { org, definitions } = enterpriseOrg(state, c.req.param("org"), callerOf(c), "read");
    return c.json(valuesOf(state.orgPropertyValues, org.login, definitions));
  });

  app.patch(V.updateOrg.pattern, guard(ORG_WRITE), async (c) => {
    const state = c.get("store").state;
    const { org, definitions } = enterpriseOrg(state, c.req.param("org"), callerOf(c), "set");
    const updates = parseUpdates(await readBody(c), definitions, `the enterprise ${org.enterprise}`);
    applyUpdates(state.orgPropertyValues, org.login, updates);
    return c.body(null, 204);
  });

  app.get(V.repo.pattern, guard(REPO_READ), (c) => {
    const state = c.get("store").state;
    const owner = c.req.param("owner");
    const { repo, org } = readableRepo(state, c.get("caller"), owner, c.req.param("repo"), REPO_READ);
    return c.json(valuesOf(state.repoPropertyValues, repoKey(repo), org.repositoryProperties));
  });

  app.patch(V.updateRepo.pattern, guard(REPO_WRITE), async (c) => {
    const state = c.get("store").state;
    const { repo, org } = pathAdminRepo(c);
    const updates = parseUpdates(
      await readBody(c),
      org.repositoryProperties,
      `the organisation ${org.login}`,
    );
    applyUpdates(state.repoPropertyValues, repoKey(repo), updates);
    return c.body(null, 204);
  });
}

/**
 * The organisation of an organisation-values route and its enterprise's definitions: 404 for an
 * unknown organisation, 403 for a caller who is not its admin, 404 for an organisation outside
 * any enterprise (the feature is not enabled there; docs/DECISIONS.md).
 */
function enterpriseOrg(
  state: EmulatorState,
  name: string,
  caller: Caller,
  action: "read" | "set",
): { org: OrgRecord; definitions: PropertyDefinition[] } {
  const org = findOrg(state, name);
  if (!org) throw notFound();
  if (orgRole(caller, org) !== "admin") {
    throw forbidden(`You must be an admin of ${org.login} to ${action} its custom property values.`);
  }
  const enterprise = state.fixture.enterprises.find((e) => e.slug === org.enterprise);
  if (!enterprise) throw notFound();
  return { org, definitions: enterprise.properties };
}
