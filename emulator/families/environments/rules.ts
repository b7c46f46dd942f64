/**
 * Custom deployment protection rules (spec, concepts "Deployment protection rule (custom)"; table
 * P): which apps an environment may use, enabling one, and the JSON shapes of a rule and an app.
 *
 * - The integrations available to an environment are the apps installed on the repository's owner.
 * - An app is enabled at most once per environment: enabling it again is a 422 `already_exists`
 *   (docs/DECISIONS.md), so a client can tell "already there" from "not allowed".
 * - Environment names are case-insensitive, as on the platform; rules record the environment's spelling.
 */
import type { Context } from "hono";
import type { ServerEnv } from "../../core/context";
import type { AppRecord, RepoRecord } from "../../core/fixture";
import { invalidField, missingField, urlOf, validationFailed } from "../../core/http";
import { LINKS } from "../../core/links";
import { repoKey } from "../../core/lookup";
import { nodeId } from "../../core/render";
import type { EmulatorState, Store } from "../../core/store";
import type { StoredProtectionRule } from "./state";

export const RESOURCE = "DeploymentProtectionRule";

/** The apps installed on the repository's owner: what its environments may enable. */
export function availableApps(state: EmulatorState, repo: RepoRecord): AppRecord[] {
  const owner = repo.owner.toLowerCase();
  return state.fixture.apps.filter((a) => a.installedOn.some((o) => o.toLowerCase() === owner));
}

export function rulesOf(state: EmulatorState, repo: RepoRecord, environment: string): StoredProtectionRule[] {
  const key = repoKey(repo);
  return state.protectionRules.filter((r) => r.repo === key && r.environment === environment);
}

/**
 * `POST .../deployment_protection_rules`: enables the app `integration_id` on the environment.
 * A missing or malformed id, an app not available to the repository, and an app already enabled
 * there are 422s naming `integration_id`.
 */
export function enableIntegration(
  store: Store,
  repo: RepoRecord,
  environment: string,
  raw: unknown,
): StoredProtectionRule {
  if (raw === undefined || raw === null) throw missingField(RESOURCE, "integration_id");
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw <= 0) {
    throw invalidField(RESOURCE, "integration_id", "integration_id must be the integer id of an app");
  }
  const app = availableApps(store.state, repo).find((a) => a.id === raw);
  if (!app) {
    throw invalidField(
      RESOURCE,
      "integration_id",
      `integration ${raw} is not available to environment ${environment}: it must be an app installed on ${repo.owner}`,
    );
  }
  if (rulesOf(store.state, repo, environment).some((r) => r.appId === app.id)) {
    throw validationFailed({
      resource: RESOURCE,
      field: "integration_id",
      code: "already_exists",
      message: `${app.slug} is already enabled on environment ${environment}`,
    });
  }
  const rule: StoredProtectionRule = { id: store.nextId(), repo: repoKey(repo), environment, appId: app.id };
  store.state.protectionRules.push(rule);
  return rule;
}

/** An app as a rule names it, and as the list of available integrations shows it. */
export function renderApp(c: Context<ServerEnv>, app: AppRecord): Record<string, unknown> {
  return {
    id: app.id,
    node_id: nodeId("Integration", app.id),
    slug: app.slug,
    integration_url: urlOf(c, LINKS.app, { app_slug: app.slug }),
  };
}

export function renderRule(
  c: Context<ServerEnv>,
  state: EmulatorState,
  rule: StoredProtectionRule,
): Record<string, unknown> {
  const app = state.fixture.apps.find((a) => a.id === rule.appId);
  // Rules are made only for fixture apps, and the fixture never changes under a stored state.
  if (!app) throw new Error(`deployment protection rule ${rule.id} names app ${rule.appId}, which is gone`);
  return {
    id: rule.id,
    node_id: nodeId("DeploymentProtectionRule", rule.id),
    enabled: true,
    app: renderApp(c, app),
  };
}
