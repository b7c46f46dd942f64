/**
 * Dependency alerts (spec, Dependency alerts (depwatch)): the enterprise, organisation and
 * repository lists, one alert, and its update. Rules in `../dependency-alerts.ts`.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, APP_TOKENS, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { ApiFailure, forbidden, invalidField, notFound, pathId, readBody } from "../../core/http";
import { findEnterprise, findOrg, findRepo, findUser, repoKey } from "../../core/lookup";
import { activeMember } from "../../core/members";
import type { Store } from "../../core/store";
import { listAlerts, pageOf } from "./alert-lists";
import { alertRepo, closeAlert, enterpriseMember, renderAlert, seesAllAlerts, updateAlert } from "./alerts";
import type { DependencyAlertRecord } from "./records";

/** `security_events` (which `repo` includes), or the FG/app permission Dependabot alerts. */
const READ: AccessRule = { scopes: ["security_events"], permission: ["vulnerability_alerts", "read"] };
/** The update exists in API version 2026-03-10 only (spec, Versioning; the route declares it). */
const WRITE: AccessRule = { scopes: ["security_events"], permission: ["vulnerability_alerts", "write"] };
/** Classic tokens only (spec, Authentication 5), scope repo or security_events; version 2026-03-10 (the route's). */
const ENTERPRISE: AccessRule = {
  scopes: ["repo", "security_events"],
  refuse: ["fine_grained", ...APP_TOKENS],
};

const R = ROUTES.dependencyAlerts;

export function dependencyAlertRoutes(app: Hono<ServerEnv>): void {
  app.get(R.listEnterprise.pattern, guard(ENTERPRISE), (c) => {
    const caller = callerOf(c);
    const state = c.get("store").state;
    const enterprise = findEnterprise(state, c.req.param("enterprise"));
    if (!enterprise || !enterpriseMember(state, caller, enterprise)) throw notFound();
    // Only organisations where the caller is an owner or a security manager; the others' alerts are left out.
    const orgs = state.fixture.orgs.filter(
      (o) => o.enterprise === enterprise.slug && seesAllAlerts(state, caller, o),
    );
    const items = listAlerts(c, state, reposOf(state.fixture.repos, orgs), "enterprise");
    return c.json(
      pageOf(c, items, "enterprise").map((i) => renderAlert(c, state, i.alert, i.repo, i.org, true)),
    );
  });

  app.get(R.listOrg.pattern, guard(READ), (c) => {
    const caller = callerOf(c);
    const state = c.get("store").state;
    const org = findOrg(state, c.req.param("org"));
    if (!org) throw notFound();
    if (!seesAllAlerts(state, caller, org)) {
      throw forbidden("You must be an owner or security manager of the organization to list its alerts");
    }
    const items = listAlerts(c, state, reposOf(state.fixture.repos, [org]), "org");
    return c.json(pageOf(c, items, "org").map((i) => renderAlert(c, state, i.alert, i.repo, i.org, true)));
  });

  app.get(R.listRepo.pattern, guard(READ), (c) => {
    const state = c.get("store").state;
    const { repo, org } = alertRepo(state, callerOf(c), c.req.param("owner"), c.req.param("repo"));
    const items = listAlerts(c, state, [{ repo, org }], "repo");
    return c.json(pageOf(c, items, "repo").map((i) => renderAlert(c, state, i.alert, i.repo, i.org)));
  });

  app.get(R.get.pattern, guard(READ), (c) => {
    const { store, alert, repo, org } = findAlert(c);
    return c.json(renderAlert(c, store.state, alert, repo, org));
  });

  app.patch(R.update.pattern, guard(WRITE), async (c) => {
    const { store, alert, repo, org } = findAlert(c);
    updateAlert(store, callerOf(c), org, alert, await readBody(c));
    return c.json(renderAlert(c, store.state, alert, repo, org));
  });
}

/** The repositories of the given organisations, each with its organisation. */
function reposOf(repos: readonly RepoRecord[], orgs: readonly OrgRecord[]) {
  return orgs.flatMap((org) =>
    repos.filter((r) => r.owner.toLowerCase() === org.login.toLowerCase()).map((repo) => ({ repo, org })),
  );
}

function findAlert(c: Context<ServerEnv>) {
  const store = c.get("store");
  const { repo, org } = alertRepo(
    store.state,
    callerOf(c),
    c.req.param("owner") ?? "",
    c.req.param("repo") ?? "",
  );
  const number = pathId(c, "alert_number");
  const key = repoKey(repo);
  const found = store.raw.dependencyAlerts.find((a) => a.repo === key && a.number === number);
  if (!found) throw notFound();
  return { store, repo, org, alert: store.tracked("dependencyAlerts", found) };
}

/** The alert a control route names (no caller: the platform acts by itself). */
function controlAlert(store: Store, owner: string, name: string, number: string): DependencyAlertRecord {
  const repo = findRepo(store.state, owner, name);
  const key = repo && repoKey(repo);
  const found = store.raw.dependencyAlerts.find((a) => a.repo === key && String(a.number) === number);
  if (!found) throw notFound();
  return store.tracked("dependencyAlerts", found);
}

/**
 * Controls: what the platform does to alerts by itself (the vulnerable dependency is upgraded: the
 * alert is fixed; an auto-triage rule closes it: auto-dismissed), and a change made in the web UI
 * (making an organisation member a security manager, or no longer one).
 */
export function dependencyAlertControls(app: Hono<ServerEnv>): void {
  for (const [action, how] of [
    ["fix", "fixed"],
    ["auto-dismiss", "auto_dismissed"],
  ] as const) {
    app.post(`/repos/:owner/:repo/depwatch/alerts/:alert_number/${action}`, (c) => {
      const alert = controlAlert(
        c.get("store"),
        c.req.param("owner"),
        c.req.param("repo"),
        c.req.param("alert_number"),
      );
      if (alert.state !== "open") {
        throw new ApiFailure(
          409,
          `Alert ${alert.number} is ${alert.state}; only an open alert can be ${how}`,
        );
      }
      closeAlert(alert, how);
      return c.json({ number: alert.number, state: alert.state });
    });
  }

  app.put("/orgs/:org/security-managers/:username", (c) => {
    const state = c.get("store").state;
    const org = findOrg(state, c.req.param("org"));
    const user = findUser(state, c.req.param("username"));
    if (!org || !user) throw notFound();
    if (!activeMember(org, user.login)) {
      throw invalidField("SecurityManager", "username", `${user.login} is not a member of ${org.login}`);
    }
    const key = org.login.toLowerCase();
    if (!state.securityManagers.some((m) => m.org === key && m.login === user.login)) {
      state.securityManagers.push({ org: key, login: user.login });
    }
    return c.body(null, 204);
  });

  app.delete("/orgs/:org/security-managers/:username", (c) => {
    const state = c.get("store").state;
    const key = c.req.param("org").toLowerCase();
    const login = c.req.param("username").toLowerCase();
    const index = state.securityManagers.findIndex((m) => m.org === key && m.login.toLowerCase() === login);
    if (index < 0) throw notFound();
    state.securityManagers.splice(index, 1);
    return c.body(null, 204);
  });
}
