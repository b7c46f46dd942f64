/**
 * Rulesets (the published description's `repos/*-repo-ruleset*`, `orgs/*-org-ruleset*`) and the
 * rules of a branch (`repos/get-branch-rules`).
 *
 * - Organisation rulesets: members read them (`read:org`; fine-grained `organization_administration`
 *   read), owners write them (`admin:org`; the permission write). Repository rulesets: whoever
 *   reads the repository reads them (public; Metadata read), its administrators write them (`repo`;
 *   Administration write). `bypass_actors` are shown only to those who may write the ruleset.
 * - Lists are summaries (no conditions, rules or bypass actors), as on the platform; a repository's
 *   list includes the organisation rulesets that apply to it unless `includes_parents=false`, and
 *   `targets=branch,tag` filters by target.
 * - Create answers 201, update (PUT: what the body leaves out is kept) 200, delete 204.
 */
import type { Context, Hono } from "hono";
import { type ApiBypassActor, ROUTES, RULESET_TARGETS } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { invalidField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { findOrg, pathAdminRepo, readableRepo, repoKey } from "../../core/lookup";
import { nodeId } from "../../core/render";
import { timestamp } from "../../core/store";
import { configOrg } from "../org-config/config";
import { branchRules, orgRulesetsFor } from "./evaluate";
import { parseRuleset, type RulesetPlace } from "./parse";
import type { StoredRuleset } from "./state";

const ORG_READ: AccessRule = { scopes: ["read:org"], permission: ["organization_administration", "read"] };
const ORG_WRITE: AccessRule = { scopes: ["admin:org"], permission: ["organization_administration", "write"] };
const REPO_READ: AccessRule = { permission: ["metadata", "read"], public: true };
const REPO_WRITE: AccessRule = { scopes: ["repo"], permission: ["administration", "write"] };

const O = ROUTES.orgRulesets;
const R = ROUTES.repoRulesets;

export function rulesetRoutes(app: Hono<ServerEnv>): void {
  app.get(O.list.pattern, guard(ORG_READ), (c) => {
    const org = configOrg(c, "member", "read its rulesets");
    const sets = ownRulesets(c, "org", org.login.toLowerCase()).filter(targeted(c));
    return c.json(paginate(c, sets).map((r) => renderRuleset(c, r, { summary: true })));
  });

  app.post(O.create.pattern, guard(ORG_WRITE), async (c) => {
    const org = configOrg(c, "owner", "create rulesets");
    const place = { scope: "org" as const, org, others: ownRulesets(c, "org", org.login.toLowerCase()) };
    return c.json(renderRuleset(c, create(c, place, org.login, await readBody(c)), { bypass: true }), 201);
  });

  app.get(O.get.pattern, guard(ORG_READ), (c) => {
    const org = configOrg(c, "member", "read its rulesets");
    const ruleset = orgRuleset(c, org);
    return c.json(renderRuleset(c, ruleset, { bypass: orgRole(callerOf(c), org) === "admin" }));
  });

  app.put(O.update.pattern, guard(ORG_WRITE), async (c) => {
    const org = configOrg(c, "owner", "update rulesets");
    const ruleset = orgRuleset(c, org);
    const others = ownRulesets(c, "org", ruleset.owner).filter((r) => r.id !== ruleset.id);
    update(c, { scope: "org", org, others }, ruleset, await readBody(c));
    return c.json(renderRuleset(c, ruleset, { bypass: true }));
  });

  app.delete(O.delete.pattern, guard(ORG_WRITE), (c) => {
    const org = configOrg(c, "owner", "delete rulesets");
    remove(c, orgRuleset(c, org));
    return c.body(null, 204);
  });

  app.get(R.list.pattern, guard(REPO_READ), (c) => {
    const { repo, org } = readable(c);
    const own = ownRulesets(c, "repo", repoKey(repo));
    const parents =
      c.req.query("includes_parents") === "false" ? [] : orgRulesetsFor(c.get("store").state, org, repo);
    const sets = [...parents, ...own].filter(targeted(c));
    return c.json(paginate(c, sets).map((r) => renderRuleset(c, r, { summary: true, repo })));
  });

  app.post(R.create.pattern, guard(REPO_WRITE), async (c) => {
    const { repo, org } = pathAdminRepo(c);
    const key = repoKey(repo);
    const place = { scope: "repo" as const, org, others: ownRulesets(c, "repo", key) };
    return c.json(renderRuleset(c, create(c, place, key, await readBody(c)), { bypass: true, repo }), 201);
  });

  app.get(R.get.pattern, guard(REPO_READ), (c) => {
    const { repo, org } = readable(c);
    const id = pathId(c, "ruleset_id");
    const state = c.get("store").state;
    // A repository's ruleset, or (includes_parents, the default) an organisation ruleset applying to it.
    const parents = c.req.query("includes_parents") === "false" ? [] : orgRulesetsFor(state, org, repo);
    const ruleset = [...ownRulesets(c, "repo", repoKey(repo)), ...parents].find((r) => r.id === id);
    if (!ruleset) throw notFound();
    const caller = c.get("caller");
    const writer = ruleset.scope === "repo" ? canAdminister(c, repo) : orgRole(caller, org) === "admin";
    return c.json(renderRuleset(c, ruleset, { bypass: writer, repo }));
  });

  app.put(R.update.pattern, guard(REPO_WRITE), async (c) => {
    const { repo, org } = pathAdminRepo(c);
    const ruleset = repoRuleset(c, repo);
    const others = ownRulesets(c, "repo", ruleset.owner).filter((r) => r.id !== ruleset.id);
    update(c, { scope: "repo", org, others }, ruleset, await readBody(c));
    return c.json(renderRuleset(c, ruleset, { bypass: true, repo }));
  });

  app.delete(R.delete.pattern, guard(REPO_WRITE), (c) => {
    const { repo } = pathAdminRepo(c);
    remove(c, repoRuleset(c, repo));
    return c.body(null, 204);
  });

  app.get(ROUTES.branchRules.get.pattern, guard(REPO_READ), (c) => {
    const { repo } = readable(c);
    return c.json(paginate(c, branchRules(c.get("store"), repo, c.req.param("branch") ?? "")));
  });
}

function ownRulesets(c: Context<ServerEnv>, scope: "org" | "repo", owner: string): StoredRuleset[] {
  return c.get("store").state.rulesets.filter((r) => r.scope === scope && r.owner.toLowerCase() === owner);
}

/** The `targets` query (`branch,tag`): which targets a list keeps. */
function targeted(c: Context<ServerEnv>): (r: StoredRuleset) => boolean {
  const query = c.req.query("targets");
  if (query === undefined) return () => true;
  const wanted = query.split(",").map((t) => t.trim());
  const unknown = wanted.find((t) => !(RULESET_TARGETS as readonly string[]).includes(t));
  if (unknown !== undefined)
    throw invalidField("Ruleset", "targets", `targets must name ${RULESET_TARGETS.join(", ")}`);
  return (r) => wanted.includes(r.target);
}

function orgRuleset(c: Context<ServerEnv>, org: OrgRecord): StoredRuleset {
  const id = pathId(c, "ruleset_id");
  const found = ownRulesets(c, "org", org.login.toLowerCase()).find((r) => r.id === id);
  if (!found) throw notFound();
  return found;
}

function repoRuleset(c: Context<ServerEnv>, repo: RepoRecord): StoredRuleset {
  const id = pathId(c, "ruleset_id");
  const found = ownRulesets(c, "repo", repoKey(repo)).find((r) => r.id === id);
  if (!found) throw notFound();
  return found;
}

function readable(c: Context<ServerEnv>): { repo: RepoRecord; org: OrgRecord } {
  return readableRepo(
    c.get("store").state,
    c.get("caller"),
    c.req.param("owner") ?? "",
    c.req.param("repo") ?? "",
    REPO_READ,
  );
}

function canAdminister(c: Context<ServerEnv>, repo: RepoRecord): boolean {
  const caller = c.get("caller");
  const org = findOrg(c.get("store").state, repo.owner);
  return org !== undefined && orgRole(caller, org) === "admin";
}

function create(
  c: Context<ServerEnv>,
  place: RulesetPlace,
  owner: string,
  body: Record<string, unknown>,
): StoredRuleset {
  const store = c.get("store");
  const settings = parseRuleset(store.state, place, body, undefined);
  const now = timestamp();
  const ruleset: StoredRuleset = {
    id: store.nextId(),
    scope: place.scope,
    owner,
    ...settings,
    createdAt: now,
    updatedAt: now,
  };
  store.state.rulesets.push(ruleset);
  return ruleset;
}

function update(
  c: Context<ServerEnv>,
  place: RulesetPlace,
  ruleset: StoredRuleset,
  body: Record<string, unknown>,
): void {
  const settings = parseRuleset(c.get("store").state, place, body, ruleset);
  Object.assign(ruleset, settings, { updatedAt: timestamp() });
}

function remove(c: Context<ServerEnv>, ruleset: StoredRuleset): void {
  const state = c.get("store").state;
  state.rulesets = state.rulesets.filter((r) => r.id !== ruleset.id);
}

/**
 * A ruleset as the API answers it (`repository-ruleset`): a summary in lists; the bypass actors
 * only for those who may write it.
 */
function renderRuleset(
  c: Context<ServerEnv>,
  r: StoredRuleset,
  show: { summary?: boolean; bypass?: boolean; repo?: RepoRecord },
): Record<string, unknown> {
  const org = findOrg(c.get("store").state, r.scope === "org" ? r.owner : (r.owner.split("/")[0] ?? ""));
  const [owner = "", name = ""] = r.scope === "repo" ? r.owner.split("/") : [];
  const repo = show.repo ?? (r.scope === "repo" ? { owner, name } : undefined);
  const self =
    r.scope === "org" || !repo
      ? urlOf(c, O.get, { org: org?.login ?? r.owner, ruleset_id: r.id })
      : urlOf(c, R.get, { owner: repo.owner, repo: repo.name, ruleset_id: r.id });
  const origin = new URL(c.req.url).origin;
  const html =
    r.scope === "org"
      ? `${origin}/organizations/${org?.login ?? r.owner}/settings/rules/${r.id}`
      : `${origin}/${repo?.owner}/${repo?.name}/rules/${r.id}`;
  const summary = {
    id: r.id,
    name: r.name,
    target: r.target,
    source_type: r.scope === "org" ? "Organization" : "Repository",
    source: r.scope === "org" ? (org?.login ?? r.owner) : `${repo?.owner}/${repo?.name}`,
    enforcement: r.enforcement,
    node_id: nodeId("RepositoryRuleset", r.id),
    _links: { self: { href: self }, html: { href: html } },
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
  if (show.summary) return summary;
  return {
    ...summary,
    ...(show.bypass ? { bypass_actors: r.bypassActors.map((a): ApiBypassActor => ({ ...a })) } : {}),
    conditions: r.conditions,
    rules: r.rules.map((rule) => ({ ...rule })),
  };
}
