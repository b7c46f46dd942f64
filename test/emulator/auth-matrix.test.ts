/**
 * The authorisation matrix: every API route the sandbox server serves x every kind of caller of
 * the default fixture, with the status the spec's rules give (spec, Authentication 1-8 and the auth
 * notation of each endpoint table; docs/sandbox.md). A refused request changes nothing.
 *
 * A resource family adds its routes as rows of `ROWS`: the route template (as registered), a body
 * for writes, and the expected status per caller kind, usually through one of the profiles below.
 * The suite fails when a served route has no row.
 */
import { serialize } from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import {
  APP_USER_TOKEN,
  call,
  control,
  dispatchInProcess,
  expectErrorBody,
  fillRoute,
  gpgPublicKey,
  requiredHeaders,
  restoreState,
  seedWorld,
  servedRoutes,
  sshPublicKey,
  stateText,
  TOKENS,
  UNMODELLED_PARAMS,
  type World,
} from "./helpers";

/** The callers: no token at all, an unknown token, and the fixture's tokens. */
const CALLERS = {
  none: null,
  unknown: "svcp_unknown",
  siteAdmin: TOKENS.siteAdmin, // classic, admin (site administrator, owner of everything), all scopes
  owner: TOKENS.owner, // classic, olivia (owner of acme-eng): repo admin:org admin:repo_hook
  member: TOKENS.member, // classic, octocat (member of acme-eng): repo read:org
  noScopes: TOKENS.noScopes, // classic, octocat, no scopes
  fineGrained: TOKENS.fineGrained, // fine-grained, admin, every permission
  install: TOKENS.install, // app installation of deploy-gate on acme-eng: deployments, actions, metadata
  billing: TOKENS.billing, // classic, billie (billing manager of acme, member of no organisation): manage_billing:enterprise
  uat: APP_USER_TOKEN, // app user token of deploy-gate for octocat: the installation's permissions, user permissions
} as const;
type Kind = keyof typeof CALLERS;
type Expected = Record<Kind, number>;

interface Row {
  /** `METHOD /template`, as the route is registered (`servedRoutes`). */
  route: string;
  body?: unknown;
  expect: Expected;
}

/**
 * Every route but the public ones needs a known token (spec, Authentication 1; README). The billing
 * manager's token holds only `manage_billing:enterprise` and billie belongs to no organisation, so
 * outside budgets she is answered as a token without scopes is, unless a row says otherwise. The app
 * user token is governed by permissions as the fine-grained token is, and answered as it is unless
 * a row (or a profile) says otherwise: the profiles below give its status where deploy-gate's
 * permissions or octocat's roles fall short, or where app tokens are refused.
 */
const authenticated = (
  rest: Omit<Expected, "none" | "unknown" | "billing" | "uat"> & { billing?: number; uat?: number },
): Expected => ({
  none: 401,
  unknown: 401,
  billing: rest.noScopes,
  uat: rest.fineGrained,
  ...rest,
});

/** The same status for every authenticated caller. */
const anyToken = (status: number): Expected =>
  authenticated({
    siteAdmin: status,
    owner: status,
    member: status,
    noScopes: status,
    fineGrained: status,
    install: status,
    uat: status,
  });

/** Site administration: a site administrator's classic token only, 404 to anyone else (Authentication 6). */
const siteAdminOnly = (ok: number): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: 404,
    member: 404,
    noScopes: 404,
    fineGrained: 404,
    install: 404,
    uat: 404,
  });

/**
 * Enterprise runner groups (table E): scope manage_runners:enterprise of an enterprise owner; app
 * and fine-grained tokens refused (Authentication 5). Only the site administrator owns `acme`.
 */
const enterpriseOwner = (ok: number): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: 403,
    member: 403,
    noScopes: 403,
    fineGrained: 403,
    install: 403,
    uat: 403,
  });

/**
 * Repository webhooks of acme-eng/api (table H): a repo_hook scope or repo, FG Webhooks (here
 * `repository_hooks`); the repository's admins only, 404 to a member who is not one. deploy-gate
 * holds neither Webhooks nor Administration, for its installation nor for its users.
 */
const repoAdmin = (ok: number): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: ok,
    member: 404,
    noScopes: 403,
    fineGrained: ok,
    install: 403,
    uat: 403,
  });

/**
 * Owner routes of acme-eng (runner groups, table OG; membership writes): admin:org of an owner, or
 * the FG permission (Self-hosted runners, Members write); octocat's read:org is not enough, and
 * deploy-gate holds no organisation permission.
 */
const orgOwner = (ok: number): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: ok,
    member: 403,
    noScopes: 403,
    fineGrained: ok,
    install: 403,
    uat: 403,
  });

/**
 * Public routes (auth "public"): served without a token, to everyone with the public view; an
 * unknown token is still a 401. The app tokens of deploy-gate hold no Members permission, so they
 * see what an outsider sees.
 */
const publicRoute = (ok: number, outsider = ok): Expected => ({
  none: outsider,
  unknown: 401,
  siteAdmin: ok,
  owner: ok,
  member: ok,
  noScopes: outsider,
  fineGrained: ok,
  install: outsider,
  billing: outsider,
  uat: outsider,
});

const META: Row[] = [
  // An installation token is no user.
  { route: "GET /user", expect: { ...anyToken(200), install: 403 } },
  { route: "GET /orgs/:org", expect: anyToken(200) },
  // Anyone may look an account up.
  { route: "GET /users/:username", expect: publicRoute(200) },
];

const H = "/repos/:owner/:repo/hooks";
const REPO_HOOKS: Row[] = [
  { route: `GET ${H}`, expect: repoAdmin(200) },
  { route: `POST ${H}`, body: { config: { url: "https://example.com/matrix" } }, expect: repoAdmin(201) },
  { route: `GET ${H}/:hook_id`, expect: repoAdmin(200) },
  { route: `PATCH ${H}/:hook_id`, body: { active: false }, expect: repoAdmin(200) },
  { route: `DELETE ${H}/:hook_id`, expect: repoAdmin(204) },
  { route: `GET ${H}/:hook_id/config`, expect: repoAdmin(200) },
  { route: `PATCH ${H}/:hook_id/config`, body: { content_type: "json" }, expect: repoAdmin(200) },
  { route: `GET ${H}/:hook_id/deliveries`, expect: repoAdmin(200) },
  { route: `POST ${H}/:hook_id/pings`, expect: repoAdmin(204) },
  { route: `POST ${H}/:hook_id/tests`, expect: repoAdmin(204) },
];

/**
 * Organisation webhooks of acme-eng: an owner with `admin:org_hook`, or FG `organization_hooks`. Only
 * the site administrator's classic token holds the scope (olivia's owner token does not), and
 * deploy-gate holds no organisation permission.
 */
const orgHookOwner = (ok: number): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: 403,
    member: 403,
    noScopes: 403,
    fineGrained: ok,
    install: 403,
    uat: 403,
  });

const OH = "/orgs/:org/hooks";
const ORG_HOOKS: Row[] = [
  { route: `GET ${OH}`, expect: orgHookOwner(200) },
  {
    route: `POST ${OH}`,
    body: { name: "web", config: { url: "https://example.com/matrix" } },
    expect: orgHookOwner(201),
  },
  { route: `GET ${OH}/:hook_id`, expect: orgHookOwner(200) },
  { route: `PATCH ${OH}/:hook_id`, body: { active: false }, expect: orgHookOwner(200) },
  { route: `DELETE ${OH}/:hook_id`, expect: orgHookOwner(204) },
  { route: `GET ${OH}/:hook_id/config`, expect: orgHookOwner(200) },
  { route: `PATCH ${OH}/:hook_id/config`, body: { content_type: "json" }, expect: orgHookOwner(200) },
  { route: `GET ${OH}/:hook_id/deliveries`, expect: orgHookOwner(200) },
  { route: `POST ${OH}/:hook_id/pings`, expect: orgHookOwner(204) },
];

const GLOBAL_HOOKS: Row[] = [
  { route: "GET /admin/hooks", expect: siteAdminOnly(200) },
  {
    route: "POST /admin/hooks",
    body: { name: "web", config: { url: "https://example.com/matrix" } },
    expect: siteAdminOnly(201),
  },
  { route: "GET /admin/hooks/:hook_id", expect: siteAdminOnly(200) },
  { route: "PATCH /admin/hooks/:hook_id", body: { active: false }, expect: siteAdminOnly(200) },
  { route: "DELETE /admin/hooks/:hook_id", expect: siteAdminOnly(204) },
  { route: "POST /admin/hooks/:hook_id/pings", expect: siteAdminOnly(204) },
];

const M = "/orgs/:org";
const MEMBERSHIPS: Row[] = [
  { route: `GET ${M}/members`, expect: publicRoute(200) },
  // Callers who may not see the organisation from inside are sent to the public check.
  { route: `GET ${M}/members/:username`, expect: publicRoute(204, 302) },
  { route: `DELETE ${M}/members/:username`, expect: orgOwner(204) },
  { route: `GET ${M}/public_members`, expect: publicRoute(200) },
  { route: `GET ${M}/public_members/:username`, expect: publicRoute(204) },
  // A member reads memberships (octocat reads his own) with read:org or Members read.
  { route: `GET ${M}/memberships/:username`, expect: { ...orgOwner(200), member: 200 } },
  { route: `PUT ${M}/memberships/:username`, body: { role: "member" }, expect: orgOwner(200) },
  { route: `DELETE ${M}/memberships/:username`, expect: orgOwner(204) },
  // Owners only: octocat's read:org passes the scope check, then he is no owner.
  { route: `GET ${M}/invitations`, expect: orgOwner(200) },
];

const E = "/enterprises/:enterprise/actions/runner-groups";
const O = "/orgs/:org/actions/runner-groups";
const RUNNER_GROUPS: Row[] = [
  ...(
    [
      [E, enterpriseOwner, 7],
      [O, orgOwner, 2],
    ] as const
  ).flatMap(([base, profile, otherRunner]): Row[] => [
    { route: `GET ${base}`, expect: profile(200) },
    { route: `POST ${base}`, body: { name: "matrix" }, expect: profile(201) },
    { route: `GET ${base}/:runner_group_id`, expect: profile(200) },
    { route: `PATCH ${base}/:runner_group_id`, body: { name: "renamed" }, expect: profile(200) },
    { route: `DELETE ${base}/:runner_group_id`, expect: profile(204) },
    { route: `GET ${base}/:runner_group_id/runners`, expect: profile(200) },
    { route: `PUT ${base}/:runner_group_id/runners`, body: { runners: [otherRunner] }, expect: profile(204) },
    { route: `PUT ${base}/:runner_group_id/runners/:runner_id`, expect: profile(204) },
    { route: `DELETE ${base}/:runner_group_id/runners/:runner_id`, expect: profile(204) },
  ]),
  { route: `GET ${E}/:runner_group_id/organizations`, expect: enterpriseOwner(200) },
  {
    route: `PUT ${E}/:runner_group_id/organizations`,
    body: { selected_organization_ids: [100, 101] },
    expect: enterpriseOwner(204),
  },
  { route: `PUT ${E}/:runner_group_id/organizations/:org_id`, expect: enterpriseOwner(204) },
  { route: `DELETE ${E}/:runner_group_id/organizations/:org_id`, expect: enterpriseOwner(204) },
  { route: `GET ${O}/:runner_group_id/repositories`, expect: orgOwner(200) },
  {
    route: `PUT ${O}/:runner_group_id/repositories`,
    body: { selected_repository_ids: [1000, 1001] },
    expect: orgOwner(204),
  },
  { route: "GET /orgs/:org/actions/runners", expect: orgOwner(200) },
];

/**
 * Reading the protection rules of acme-eng/api (private; table P, "public"): `repo` or Actions read,
 * and seeing the repository (the app is installed on acme-eng; its user token acts for octocat, a
 * member); a private repository is a 404 to everyone else, anonymous callers included.
 */
const privateRepoRead = (ok: number): Expected => ({
  none: 404,
  unknown: 401,
  siteAdmin: ok,
  owner: ok,
  member: ok,
  noScopes: 404,
  fineGrained: ok,
  install: ok,
  billing: 404,
  uat: ok,
});

const ENV = "/repos/:owner/:repo/environments/:environment_name";
const BP = `${ENV}/deployment-branch-policies`;
/** Environments and their branch policies: read like the protection rules, written by the repository's admins. */
const ENVIRONMENTS: Row[] = [
  { route: "GET /repos/:owner/:repo/environments", expect: privateRepoRead(200) },
  { route: `GET ${ENV}`, expect: privateRepoRead(200) },
  { route: `PUT ${ENV}`, body: { wait_timer: 1 }, expect: repoAdmin(200) },
  { route: `DELETE ${ENV}`, expect: repoAdmin(204) },
  { route: `GET ${BP}`, expect: privateRepoRead(200) },
  { route: `POST ${BP}`, body: { name: "matrix/*" }, expect: repoAdmin(200) },
  { route: `GET ${BP}/:branch_policy_id`, expect: privateRepoRead(200) },
  { route: `PUT ${BP}/:branch_policy_id`, body: { name: "renamed" }, expect: repoAdmin(200) },
  { route: `DELETE ${BP}/:branch_policy_id`, expect: repoAdmin(204) },
];

const P = "/repos/:owner/:repo/environments/:environment_name/deployment_protection_rules";
const PROTECTION_RULES: Row[] = [
  { route: `GET ${P}`, expect: privateRepoRead(200) },
  // Writes and the app list: the repository's admins, `repo`, Administration (deploy-gate has none).
  { route: `POST ${P}`, body: { integration_id: 102 }, expect: repoAdmin(201) },
  { route: `GET ${P}/apps`, expect: repoAdmin(200) },
  { route: `GET ${P}/:protection_rule_id`, expect: privateRepoRead(200) },
  { route: `DELETE ${P}/:protection_rule_id`, expect: repoAdmin(204) },
];

/**
 * Custom property values. Organisation values (API version 2026-03-10): organisation admins with
 * read:org / admin:org, or FG `custom_properties_for_organizations`. Repository values: read like
 * the repository (public; acme-eng/api is private), written by its admins with `repo` or FG
 * `repository_custom_properties` write.
 */
const SET_TIER = { properties: [{ property_name: "tier", value: "gold" }] };
const PROPERTY_VALUES: Row[] = [
  { route: "GET /organizations/:org/org-properties/values", expect: orgOwner(200) },
  { route: "PATCH /organizations/:org/org-properties/values", body: SET_TIER, expect: orgOwner(204) },
  {
    route: "GET /repos/:owner/:repo/properties/values",
    expect: privateRepoRead(200),
  },
  { route: "PATCH /repos/:owner/:repo/properties/values", body: SET_TIER, expect: repoAdmin(204) },
];

/**
 * Budgets of acme (spec, Authentication 5 and 7): classic tokens only; reads need an enterprise admin
 * or billing manager (`manage_billing:enterprise`), creates and updates also take an organisation
 * admin (`admin:org`) for budgets of their organisation (the seeded budget and the created one are
 * acme-eng's), deletes an enterprise admin.
 */
const budgetProfile = (ok: number, who: { owner: number; billing: number }): Expected =>
  authenticated({
    siteAdmin: ok,
    member: 403,
    noScopes: 403,
    fineGrained: 403,
    install: 403,
    uat: 403,
    ...who,
  });
const B = "/enterprises/:enterprise/settings/billing/budgets";
const BUDGETS: Row[] = [
  { route: `GET ${B}`, expect: budgetProfile(200, { owner: 403, billing: 200 }) },
  {
    route: `POST ${B}`,
    body: {
      budget_amount: 50,
      prevent_further_usage: true,
      budget_alerting: { will_alert: false, alert_recipients: [] },
      budget_scope: "organization",
      budget_entity_name: "acme-eng",
      budget_type: "SkuPricing",
      budget_product_sku: "actions_linux",
    },
    expect: budgetProfile(200, { owner: 200, billing: 200 }),
  },
  { route: `GET ${B}/:budget_id`, expect: budgetProfile(200, { owner: 403, billing: 200 }) },
  {
    route: `PATCH ${B}/:budget_id`,
    body: { budget_amount: 200 },
    expect: budgetProfile(200, { owner: 200, billing: 200 }),
  },
  { route: `DELETE ${B}/:budget_id`, expect: budgetProfile(200, { owner: 403, billing: 403 }) },
];

/**
 * Private registries of acme-eng: admin:org of an owner, or the FG permission Organization private
 * registries. The bodies use an OIDC auth type, which carries no sealed value.
 */
const PR = "/orgs/:org/private-registries";
const PRIVATE_REGISTRIES: Row[] = [
  { route: `GET ${PR}`, expect: orgOwner(200) },
  { route: `GET ${PR}/public-key`, expect: orgOwner(200) },
  {
    route: `POST ${PR}`,
    body: {
      registry_type: "npm_registry",
      url: "https://npm.example.com/matrix",
      visibility: "all",
      auth_type: "oidc_jfrog",
      jfrog_oidc_provider_name: "matrix",
    },
    expect: orgOwner(201),
  },
  { route: `GET ${PR}/:secret_name`, expect: orgOwner(200) },
  {
    route: `PATCH ${PR}/:secret_name`,
    body: { url: "https://maven.example.com/other" },
    expect: orgOwner(204),
  },
  { route: `DELETE ${PR}/:secret_name`, expect: orgOwner(204) },
];

/**
 * Actions secrets and variables (matrix, organisation: Secrets, Variables; repository: Secrets,
 * Variables, Environments), on the ones `seedWorld` made. Organisation ones: admin:org of an owner,
 * or the FG permission (`organization_secrets`, `organization_actions_variables`). Repository ones:
 * `repo` of the repository's admins (404 to a member), or FG `secrets` / `actions_variables`.
 * Environment ones: `repo`, or FG `environments`, which deploy-gate reads: its installation (an
 * admin of acme-eng) reads them, its user token acts for octocat, a member (404). The PUTs of a
 * repository's or an environment's secret carry a value sealed for no key: a 422 once allowed.
 */
const envRead = (ok: number): Expected => ({ ...repoAdmin(ok), install: ok, uat: 404 });
const ACTIONS_PLACES = [
  ["/orgs/:org/actions", orgOwner, orgOwner],
  ["/repos/:owner/:repo/actions", repoAdmin, repoAdmin],
  ["/repos/:owner/:repo/environments/:environment_name", envRead, repoAdmin],
] as const;
const NOT_SEALED = { encrypted_value: "AAAA", key_id: "1" };
const ACTIONS: Row[] = [
  ...ACTIONS_PLACES.flatMap(([base, read, write]): Row[] => {
    const org = base.startsWith("/orgs/");
    return [
      { route: `GET ${base}/secrets`, expect: read(200) },
      { route: `GET ${base}/secrets/public-key`, expect: read(200) },
      { route: `GET ${base}/secrets/:secret_name`, expect: read(200) },
      {
        route: `PUT ${base}/secrets/:secret_name`,
        // An organisation's secret may change its visibility alone.
        body: org ? { visibility: "all" } : NOT_SEALED,
        expect: write(org ? 204 : 422),
      },
      { route: `DELETE ${base}/secrets/:secret_name`, expect: write(204) },
      { route: `GET ${base}/variables`, expect: read(200) },
      {
        route: `POST ${base}/variables`,
        body: { name: "MATRIX_NEW", value: "v", ...(org ? { visibility: "all" } : {}) },
        expect: write(201),
      },
      { route: `GET ${base}/variables/:name`, expect: read(200) },
      { route: `PATCH ${base}/variables/:name`, body: { value: "changed" }, expect: write(204) },
      { route: `DELETE ${base}/variables/:name`, expect: write(204) },
    ];
  }),
  ...(["secrets/:secret_name", "variables/:name"] as const).flatMap((item): Row[] => {
    const base = `/orgs/:org/actions/${item}/repositories`;
    return [
      { route: `GET ${base}`, expect: orgOwner(200) },
      { route: `PUT ${base}`, body: { selected_repository_ids: [1000, 1001] }, expect: orgOwner(204) },
      { route: `PUT ${base}/:repository_id`, expect: orgOwner(204) },
      { route: `DELETE ${base}/:repository_id`, expect: orgOwner(204) },
    ];
  }),
];

/**
 * The signed-in user's keys (matrix, User permissions: GPG keys, Git SSH keys, SSH signing keys;
 * UAT only): the key scopes (read/write/admin of gpg_key, public_key, ssh_signing_key), which only
 * the site administrator holds, or the FG user permission; installation tokens refused. The
 * `/users/{username}/...` lists are public. Bodies hold keys no row or seed uses. deploy-gate's user
 * token holds the three user permissions and acts for octocat: it lists and adds octocat's keys, and
 * the keys `seedWorld` made are admin's, so they are a 404 to it (`uatOnSeeded`).
 */
const ownKeys = (ok: number, uatOnSeeded = ok): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: 403,
    member: 403,
    noScopes: 403,
    fineGrained: ok,
    install: 403,
    uat: uatOnSeeded,
  });
/** Its key is made (by `openpgp`, asynchronously) before the rows run. */
const GPG_KEY_CREATE: Row = { route: "POST /user/gpg_keys", expect: ownKeys(201) };
beforeAll(async () => {
  GPG_KEY_CREATE.body = { armored_public_key: await gpgPublicKey() };
});
const USER_KEYS: Row[] = [
  { route: "GET /user/gpg_keys", expect: ownKeys(200) },
  GPG_KEY_CREATE,
  { route: "GET /user/gpg_keys/:gpg_key_id", expect: ownKeys(200, 404) },
  { route: "DELETE /user/gpg_keys/:gpg_key_id", expect: ownKeys(204, 404) },
  { route: "GET /users/:username/gpg_keys", expect: publicRoute(200) },
  { route: "GET /user/keys", expect: ownKeys(200) },
  { route: "POST /user/keys", body: { title: "matrix", key: sshPublicKey() }, expect: ownKeys(201) },
  { route: "GET /user/keys/:key_id", expect: ownKeys(200, 404) },
  { route: "DELETE /user/keys/:key_id", expect: ownKeys(204, 404) },
  { route: "GET /users/:username/keys", expect: publicRoute(200) },
  { route: "GET /user/ssh_signing_keys", expect: ownKeys(200) },
  {
    route: "POST /user/ssh_signing_keys",
    body: { title: "matrix", key: sshPublicKey() },
    expect: ownKeys(201),
  },
  { route: "GET /user/ssh_signing_keys/:ssh_signing_key_id", expect: ownKeys(200, 404) },
  { route: "DELETE /user/ssh_signing_keys/:ssh_signing_key_id", expect: ownKeys(204, 404) },
];

/**
 * Notifications (API version 2026-03-10): classic tokens only, scope notifications or repo
 * (Authentication 5-6), app tokens of both kinds refused; each caller sees their own threads, so
 * admin's thread is a 404 to others.
 */
const classicNotifications = (ok: number, others = ok): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: others,
    member: others,
    noScopes: 403,
    fineGrained: 403,
    install: 403,
    uat: 403,
  });
const NOTIFICATIONS: Row[] = [
  { route: "GET /notifications", expect: classicNotifications(200) },
  { route: "PUT /notifications", body: {}, expect: classicNotifications(205) },
  { route: "GET /notifications/threads/:thread_id", expect: classicNotifications(200, 404) },
];

/** Organisation creation and rename: site administration (Authentication 5-6). */
const ORG_ADMIN: Row[] = [
  {
    route: "POST /admin/organizations",
    body: { login: "matrix-org", admin: "olivia" },
    expect: siteAdminOnly(201),
  },
  { route: "PATCH /admin/organizations/:org", body: { login: "acme-renamed" }, expect: siteAdminOnly(202) },
];

/**
 * Statistics of acme-eng/api (private; FG Metadata read; public): its readers, the installation
 * included (metadata read). The compiled ones answer 202 on the first GET after a reset.
 */
const ST = "/repos/:owner/:repo/stats";
const STATISTICS: Row[] = [
  { route: `GET ${ST}/code_frequency`, expect: privateRepoRead(202) },
  { route: `GET ${ST}/commit_activity`, expect: privateRepoRead(202) },
  { route: `GET ${ST}/contributors`, expect: privateRepoRead(202) },
  { route: `GET ${ST}/participation`, expect: privateRepoRead(200) },
  { route: `GET ${ST}/punch_card`, expect: privateRepoRead(200) },
];

/**
 * Branches of acme-eng/api (`main`, its default branch). Reads: FG Contents read, public (deploy-gate
 * has no Contents permission: the private repository is hidden from its installation and from its
 * user token alike). Writes:
 * `repo` (or `public_repo` on a public repository), FG Contents write, push access (octocat, a
 * member, pushes); renaming the default branch needs an admin (octocat gets 403). api is no fork,
 * so merge-upstream ends in a 422 for everyone allowed that far.
 */
const BR = "/repos/:owner/:repo/branches";
const branchWrite = (ok: number, member = ok): Expected =>
  authenticated({ siteAdmin: ok, owner: ok, member, noScopes: 403, fineGrained: ok, install: 403, uat: 403 });
const BRANCHES: Row[] = [
  { route: `GET ${BR}`, expect: { ...privateRepoRead(200), install: 404, uat: 404 } },
  { route: `GET ${BR}/:branch{.+}`, expect: { ...privateRepoRead(200), install: 404, uat: 404 } },
  { route: `POST ${BR}/:branch{.+}/rename`, body: { new_name: "matrix" }, expect: branchWrite(201, 403) },
  { route: "POST /repos/:owner/:repo/merge-upstream", body: { branch: "main" }, expect: branchWrite(422) },
  {
    route: "POST /repos/:owner/:repo/merges",
    body: { base: "main", head: "develop" },
    expect: branchWrite(201),
  },
];

/**
 * Security and review routes on acme-eng/api (private). Snapshots: scope repo, FG Contents write,
 * the organisation's members write. Alerts: security_events (repo includes it) or FG Dependabot
 * alerts, seen by the organisation's members; the update and the enterprise list exist in
 * 2026-03-10 only; the organisation list needs an owner (or security manager); the enterprise list
 * refuses app and fine-grained tokens (Authentication 5) and serves any member of the enterprise
 * (octocat sees no alert: he owns no organisation). Issue field values and the review request list
 * are public reads of a private repository; requesting reviewers needs repo or Pull requests write.
 * deploy-gate holds none of Contents, Dependabot alerts, Issues or Pull requests, for its
 * installation nor for its user token; the enterprise list refuses both app token kinds.
 */
const repoWrite = (ok: number): Expected =>
  authenticated({
    siteAdmin: ok,
    owner: ok,
    member: ok,
    noScopes: 403,
    fineGrained: ok,
    install: 403,
    uat: 403,
  });
const SNAPSHOT = {
  version: 0,
  job: { id: "matrix", correlator: "matrix" },
  sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
  ref: "refs/heads/main",
  detector: { name: "matrix", version: "1.0.0", url: "https://example.com/matrix" },
  scanned: "2026-01-10T09:00:00Z",
};
const DA = "depwatch/alerts";
const SECURITY: Row[] = [
  { route: "POST /repos/:owner/:repo/dependency-graph/snapshots", body: SNAPSHOT, expect: repoWrite(201) },
  {
    route: `GET /enterprises/:enterprise/${DA}`,
    expect: authenticated({
      siteAdmin: 200,
      owner: 200,
      member: 200,
      noScopes: 403,
      fineGrained: 403,
      install: 403,
      uat: 403,
    }),
  },
  { route: `GET /orgs/:org/${DA}`, expect: { ...orgOwner(200), member: 403 } },
  { route: `GET /repos/:owner/:repo/${DA}`, expect: repoWrite(200) },
  { route: `GET /repos/:owner/:repo/${DA}/:alert_number`, expect: repoWrite(200) },
  {
    route: `PATCH /repos/:owner/:repo/${DA}/:alert_number`,
    body: { state: "dismissed", dismissed_reason: "not_used" },
    expect: repoWrite(200),
  },
  // deploy-gate holds neither Issues nor Pull requests: the private repository stays hidden from it.
  {
    route: "GET /repos/:owner/:repo/issues/:issue_number/issue-field-values",
    expect: { ...privateRepoRead(200), install: 404, uat: 404 },
  },
  {
    route: "GET /repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    expect: { ...privateRepoRead(200), install: 404, uat: 404 },
  },
  {
    route: "POST /repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    body: { reviewers: ["olivia"] },
    expect: repoWrite(201),
  },
];

/**
 * Repositories of acme-eng (the repository Administration group, as the published description
 * serves it): reads by Metadata (acme-eng/api is private: classic tokens need repo, Authentication
 * 2); creating by a member of the organisation with `repo` or Administration write (octocat may, as
 * acme-eng's default policy lets members create); changes and topics by the repository's admins
 * (octocat reads it: 403); deleting needs `delete_repo`, which olivia's token lacks. Deploy keys
 * are the admins' (a member is answered 404). deploy-gate holds Metadata read only.
 */
const REPO_ADMIN_WRITE = (ok: number): Expected => ({ ...repoAdmin(ok), member: 403 });
const RK = "/repos/:owner/:repo/keys";
const REPOSITORIES: Row[] = [
  // Lists what each caller may see (private repositories hidden), so never a refusal.
  { route: "GET /orgs/:org/repos", expect: anyToken(200) },
  { route: "POST /orgs/:org/repos", body: { name: "matrix" }, expect: { ...repoAdmin(201), member: 201 } },
  { route: "GET /repos/:owner/:repo", expect: { ...anyToken(200), noScopes: 404, billing: 404 } },
  { route: "PATCH /repos/:owner/:repo", body: { description: "matrix" }, expect: REPO_ADMIN_WRITE(200) },
  { route: "DELETE /repos/:owner/:repo", expect: { ...REPO_ADMIN_WRITE(204), owner: 403 } },
  { route: "GET /repos/:owner/:repo/topics", expect: privateRepoRead(200) },
  { route: "PUT /repos/:owner/:repo/topics", body: { names: ["matrix"] }, expect: REPO_ADMIN_WRITE(200) },
  { route: `GET ${RK}`, expect: repoAdmin(200) },
  { route: `POST ${RK}`, body: { title: "matrix", key: sshPublicKey() }, expect: repoAdmin(201) },
  { route: `GET ${RK}/:key_id`, expect: repoAdmin(200) },
  { route: `DELETE ${RK}/:key_id`, expect: repoAdmin(204) },
];

/**
 * Organisation settings of acme-eng (organisation Administration): owners, `admin:org` or `repo`,
 * FG `organization_administration` write; octocat's `repo` passes the scope check, then he is no
 * owner (403).
 */
const ORG_SETTINGS: Row[] = [
  { route: "PATCH /orgs/:org", body: { company: "Matrix" }, expect: orgOwner(200) },
];

/**
 * Organisation configuration of acme-eng (spec, permission matrix: Blocking users, Issue types,
 * Issue fields; UAT and IAT). Blocks are an owners' matter, reads included (`read:org`, writes
 * `admin:org`; FG `organization_user_blocking`); issue types and fields are read by members
 * (`read:org`) and written by owners (`admin:org`; FG `issue_types`, `issue_fields`). deploy-gate
 * holds none of these permissions. The block routes act on hubot, blocked by `seedWorld`.
 */
const orgMemberRead = (ok: number): Expected => ({ ...orgOwner(ok), member: ok });
const OB = "/orgs/:org/blocks";
const IT = "/orgs/:org/issue-types";
const IF = "/orgs/:org/issue-fields";
const ORG_CONFIG: Row[] = [
  { route: `GET ${OB}`, expect: orgOwner(200) },
  { route: `GET ${OB}/:username`, expect: orgOwner(204) },
  { route: `PUT ${OB}/:username`, expect: orgOwner(204) },
  { route: `DELETE ${OB}/:username`, expect: orgOwner(204) },
  { route: `GET ${IT}`, expect: orgMemberRead(200) },
  { route: `POST ${IT}`, body: { name: "Matrix", is_enabled: true }, expect: orgOwner(200) },
  { route: `PUT ${IT}/:issue_type_id`, body: { name: "Renamed", is_enabled: false }, expect: orgOwner(200) },
  { route: `DELETE ${IT}/:issue_type_id`, expect: orgOwner(204) },
  { route: `GET ${IF}`, expect: orgMemberRead(200) },
  { route: `POST ${IF}`, body: { name: "Matrix", data_type: "text" }, expect: orgOwner(200) },
  { route: `PATCH ${IF}/:issue_field_id`, body: { name: "Renamed" }, expect: orgOwner(200) },
  { route: `DELETE ${IF}/:issue_field_id`, expect: orgOwner(204) },
];

/**
 * Teams of acme-eng (organisation permission Members): members read them with read:org (the
 * fixture's team `platform` is closed, with octocat; `seedWorld` gave it pull on acme-eng/api),
 * owners write with admin:org; a team's repositories are read with read:org or repo, and given by
 * admins of the repository. deploy-gate holds no Members permission.
 */
const TM = "/orgs/:org/teams";
const TEAMS: Row[] = [
  { route: `GET ${TM}`, expect: orgMemberRead(200) },
  { route: `POST ${TM}`, body: { name: "Matrix" }, expect: orgOwner(201) },
  { route: `GET ${TM}/:team_slug`, expect: orgMemberRead(200) },
  { route: `PATCH ${TM}/:team_slug`, body: { description: "renamed" }, expect: orgOwner(200) },
  { route: `DELETE ${TM}/:team_slug`, expect: orgOwner(204) },
  { route: `GET ${TM}/:team_slug/teams`, expect: orgMemberRead(200) },
  { route: `GET ${TM}/:team_slug/members`, expect: orgMemberRead(200) },
  { route: `GET ${TM}/:team_slug/memberships/:username`, expect: orgMemberRead(200) },
  {
    route: `PUT ${TM}/:team_slug/memberships/:username`,
    body: { role: "maintainer" },
    expect: orgOwner(200),
  },
  { route: `DELETE ${TM}/:team_slug/memberships/:username`, expect: orgOwner(204) },
  { route: `GET ${TM}/:team_slug/repos`, expect: orgMemberRead(200) },
  { route: `GET ${TM}/:team_slug/repos/:owner/:repo`, expect: orgMemberRead(204) },
  { route: `PUT ${TM}/:team_slug/repos/:owner/:repo`, body: { permission: "push" }, expect: orgOwner(204) },
  { route: `DELETE ${TM}/:team_slug/repos/:owner/:repo`, expect: orgOwner(204) },
];

/**
 * Collaborators of acme-eng/api (classic `repo`, repository permission Administration): those who
 * push to it read who has access (octocat, a member); its admins change collaborators and
 * invitations (a 404 to octocat, which hides the settings), except that a person may remove
 * themselves. `seedWorld` invited mona, who is outside acme-eng.
 */
const CO = "/repos/:owner/:repo";
const COLLABORATORS: Row[] = [
  { route: `GET ${CO}/collaborators`, expect: orgMemberRead(200) },
  { route: `GET ${CO}/collaborators/:username`, expect: orgMemberRead(204) },
  { route: `PUT ${CO}/collaborators/:username`, body: { permission: "triage" }, expect: repoAdmin(204) },
  // octocat removes himself (he is no collaborator: nothing changes, and the answer is the same).
  { route: `DELETE ${CO}/collaborators/:username`, expect: { ...repoAdmin(204), member: 204 } },
  { route: `GET ${CO}/collaborators/:username/permission`, expect: orgMemberRead(200) },
  { route: `GET ${CO}/teams`, expect: orgMemberRead(200) },
  { route: `GET ${CO}/invitations`, expect: repoAdmin(200) },
  { route: `PATCH ${CO}/invitations/:invitation_id`, body: { permissions: "read" }, expect: repoAdmin(200) },
  { route: `DELETE ${CO}/invitations/:invitation_id`, expect: repoAdmin(204) },
];

/**
 * Rulesets (organisation: members read with `read:org`, owners write with `admin:org`; FG
 * organization_administration), the rules of a branch and repository rulesets of acme-eng/api
 * (read like the repository: public, Metadata read; written by its administrators with `repo`, FG
 * Administration), branch protection of `main` (administrators only, both ways), property
 * definitions of acme-eng (members read with `read:org`, owners write; FG
 * organization_custom_properties) and organisation roles (owners only, `admin:org`; FG
 * organization_custom_org_roles for the roles, members for assignments). deploy-gate holds none of
 * these permissions but Metadata read.
 */
const ORS = "/orgs/:org/rulesets";
const RRS = "/repos/:owner/:repo/rulesets";
const ROLES = "/orgs/:org/organization-roles";
const PROTECTION = "/repos/:owner/:repo/branches/:branch{.+}/protection";
const PROPERTY_SCHEMA = "/orgs/:org/properties/schema";
const A_RULESET = {
  name: "matrix",
  enforcement: "active",
  conditions: {
    ref_name: { include: ["~ALL"], exclude: [] },
    repository_name: { include: ["~ALL"], exclude: [] },
  },
  rules: [{ type: "creation" }],
};
const RULES_AND_ROLES: Row[] = [
  { route: `GET ${ORS}`, expect: orgMemberRead(200) },
  { route: `POST ${ORS}`, body: A_RULESET, expect: orgOwner(201) },
  { route: `GET ${ORS}/:ruleset_id`, expect: orgMemberRead(200) },
  { route: `PUT ${ORS}/:ruleset_id`, body: { enforcement: "evaluate" }, expect: orgOwner(200) },
  { route: `DELETE ${ORS}/:ruleset_id`, expect: orgOwner(204) },
  { route: `GET ${RRS}`, expect: privateRepoRead(200) },
  {
    route: `POST ${RRS}`,
    body: { ...A_RULESET, conditions: { ref_name: A_RULESET.conditions.ref_name } },
    expect: repoAdmin(201),
  },
  { route: `GET ${RRS}/:ruleset_id`, expect: privateRepoRead(200) },
  { route: `PUT ${RRS}/:ruleset_id`, body: { enforcement: "evaluate" }, expect: repoAdmin(200) },
  { route: `DELETE ${RRS}/:ruleset_id`, expect: repoAdmin(204) },
  { route: "GET /repos/:owner/:repo/rules/branches/:branch{.+}", expect: privateRepoRead(200) },
  { route: `GET ${PROTECTION}`, expect: repoAdmin(200) },
  {
    route: `PUT ${PROTECTION}`,
    body: {
      required_status_checks: null,
      enforce_admins: true,
      required_pull_request_reviews: null,
      restrictions: null,
    },
    expect: repoAdmin(200),
  },
  { route: `DELETE ${PROTECTION}`, expect: repoAdmin(204) },
  { route: `GET ${PROPERTY_SCHEMA}`, expect: orgMemberRead(200) },
  { route: `GET ${PROPERTY_SCHEMA}/:custom_property_name`, expect: orgMemberRead(200) },
  {
    route: `PUT ${PROPERTY_SCHEMA}/:custom_property_name`,
    body: { value_type: "single_select", allowed_values: ["gold", "silver"] },
    expect: orgOwner(200),
  },
  { route: `DELETE ${PROPERTY_SCHEMA}/:custom_property_name`, expect: orgOwner(204) },
  { route: `GET ${ROLES}`, expect: orgOwner(200) },
  { route: `GET ${ROLES}/:role_id`, expect: orgOwner(200) },
  { route: `GET ${ROLES}/:role_id/teams`, expect: orgOwner(200) },
  { route: `GET ${ROLES}/:role_id/users`, expect: orgOwner(200) },
  { route: `PUT ${ROLES}/teams/:team_slug/:role_id`, expect: orgOwner(204) },
  { route: `DELETE ${ROLES}/teams/:team_slug/:role_id`, expect: orgOwner(204) },
  { route: `PUT ${ROLES}/users/:username/:role_id`, expect: orgOwner(204) },
  { route: `DELETE ${ROLES}/users/:username/:role_id`, expect: orgOwner(204) },
];

/**
 * Routes the sandbox server does not model (the rest of the permission matrix): the callers the
 * platform lets through get 501 naming the route, the others the platform's refusal. Each status
 * below comes from the spec's matrix (access level; "UAT IAT" or "UAT only", where an installation
 * token is refused outright) and the scopes the platform documents for the route, applied to the
 * fixture's tokens: the site administrator holds every scope; olivia `repo admin:org`
 * (`repo` implies `repo:status`, `repo:invite` and `security_events`); octocat `repo read:org`; the
 * fine-grained token every permission; deploy-gate's installation token no permission of these
 * routes; its user token (octocat) the user permissions (blocking, email addresses, followers,
 * gists, interaction limits, plan, profile, watching) and no organisation or repository one.
 */
const grantedTo = (...granted: Kind[]): Expected => {
  const expected = authenticated({
    siteAdmin: 403,
    owner: 403,
    member: 403,
    noScopes: 403,
    fineGrained: 403,
    install: 403,
    uat: 403,
  });
  for (const kind of granted) expected[kind] = 501;
  return expected;
};
/** No classic scope needed: every classic token; the permission decides for the others. */
const ANY_CLASSIC: Kind[] = ["siteAdmin", "owner", "member", "noScopes", "billing"];
/** User permissions with a `user` (or implied) scope: the site administrator, fine-grained, UAT. */
const USER_SCOPE = grantedTo("siteAdmin", "fineGrained", "uat");
/** Organisation routes needing `admin:org`: the site administrator and olivia, and fine-grained. */
const ADMIN_ORG = grantedTo("siteAdmin", "owner", "fineGrained");
/** Routes needing `repo` (or a scope it implies): every classic token with repo, and fine-grained. */
const REPO_SCOPE = grantedTo("siteAdmin", "owner", "member", "fineGrained");

const CAMPAIGNS = "/orgs/:org/campaigns";
const PAT_REQUESTS = "/orgs/:org/personal-access-token-requests";
const PATS = "/orgs/:org/personal-access-tokens";
const BILLING_USAGE = "/users/:username/settings/billing";
const NOT_MODELLED: Row[] = [
  // Organization permissions (UAT IAT). Campaigns: security_events.
  { route: `GET ${CAMPAIGNS}`, expect: REPO_SCOPE },
  { route: `POST ${CAMPAIGNS}`, expect: REPO_SCOPE },
  { route: `GET ${CAMPAIGNS}/:campaign_number`, expect: REPO_SCOPE },
  { route: `PATCH ${CAMPAIGNS}/:campaign_number`, expect: REPO_SCOPE },
  { route: `DELETE ${CAMPAIGNS}/:campaign_number`, expect: REPO_SCOPE },
  // Content exclusion: reading takes assistant or read:org, writing assistant.
  {
    route: "GET /orgs/:org/assistant/content_exclusion",
    expect: grantedTo("siteAdmin", "owner", "member", "fineGrained"),
  },
  { route: "PUT /orgs/:org/assistant/content_exclusion", expect: grantedTo("siteAdmin", "fineGrained") },
  // UAT only, no scope: deploy-gate holds no Events permission, and its installation is refused.
  { route: "GET /users/:username/events/orgs/:org", expect: grantedTo(...ANY_CLASSIC, "fineGrained") },
  { route: "PUT /orgs/:org/workspaces/access", expect: ADMIN_ORG },
  { route: "POST /orgs/:org/workspaces/access/selected_users", expect: ADMIN_ORG },
  { route: "DELETE /orgs/:org/workspaces/access/selected_users", expect: ADMIN_ORG },
  { route: `GET ${PAT_REQUESTS}`, expect: ADMIN_ORG },
  { route: `POST ${PAT_REQUESTS}`, expect: ADMIN_ORG },
  { route: `POST ${PAT_REQUESTS}/:pat_request_id`, expect: ADMIN_ORG },
  { route: `GET ${PAT_REQUESTS}/:pat_request_id/repositories`, expect: ADMIN_ORG },
  { route: `GET ${PATS}`, expect: ADMIN_ORG },
  { route: `POST ${PATS}`, expect: ADMIN_ORG },
  { route: `POST ${PATS}/:pat_id`, expect: ADMIN_ORG },
  { route: `GET ${PATS}/:pat_id/repositories`, expect: ADMIN_ORG },
  // Repository permissions of acme-eng/api (private).
  { route: "GET /repos/:owner/:repo/code-quality/findings", expect: REPO_SCOPE },
  { route: "GET /repos/:owner/:repo/code-quality/findings/:finding_number", expect: REPO_SCOPE },
  // The workspace scope: only the site administrator's token holds it.
  {
    route: "GET /repos/:owner/:repo/workspaces/devcontainers",
    expect: grantedTo("siteAdmin", "fineGrained"),
  },
  { route: "GET /repos/:owner/:repo/workspaces/machines", expect: grantedTo("siteAdmin", "fineGrained") },
  { route: "GET /user/workspaces/:workspace_name/machines", expect: grantedTo("siteAdmin", "fineGrained") },
  { route: "POST /repos/:owner/:repo/statuses/:sha", expect: REPO_SCOPE },
  // Public reads of a private repository: a 404 to whoever may not read its statuses.
  {
    route: "GET /repos/:owner/:repo/commits/:ref/status",
    expect: { ...privateRepoRead(501), install: 404, uat: 404 },
  },
  {
    route: "GET /repos/:owner/:repo/commits/:ref/statuses",
    expect: { ...privateRepoRead(501), install: 404, uat: 404 },
  },
  { route: "GET /repos/:owner/:repo/assistant/cloud-agent/configuration", expect: REPO_SCOPE },
  // User permissions (UAT only): the user scope (user:email, user:follow implied).
  { route: "GET /user/blocks", expect: USER_SCOPE },
  { route: "GET /user/blocks/:username", expect: USER_SCOPE },
  { route: "PUT /user/blocks/:username", expect: USER_SCOPE },
  { route: "DELETE /user/blocks/:username", expect: USER_SCOPE },
  { route: "PATCH /user/email/visibility", expect: USER_SCOPE },
  { route: "GET /user/emails", expect: USER_SCOPE },
  { route: "POST /user/emails", expect: USER_SCOPE },
  { route: "DELETE /user/emails", expect: USER_SCOPE },
  { route: "GET /user/public_emails", expect: USER_SCOPE },
  // Reading followers takes no scope; following takes user:follow.
  { route: "GET /user/followers", expect: grantedTo(...ANY_CLASSIC, "fineGrained", "uat") },
  { route: "GET /user/following", expect: grantedTo(...ANY_CLASSIC, "fineGrained", "uat") },
  { route: "GET /user/following/:username", expect: grantedTo(...ANY_CLASSIC, "fineGrained", "uat") },
  { route: "PUT /user/following/:username", expect: USER_SCOPE },
  { route: "DELETE /user/following/:username", expect: USER_SCOPE },
  // Gists (all w): the gist scope, which only the site administrator's token holds.
  { route: "POST /gists", expect: USER_SCOPE },
  { route: "PATCH /gists/:gist_id", expect: USER_SCOPE },
  { route: "DELETE /gists/:gist_id", expect: USER_SCOPE },
  { route: "POST /gists/:gist_id/comments", expect: USER_SCOPE },
  { route: "PATCH /gists/:gist_id/comments/:comment_id", expect: USER_SCOPE },
  { route: "DELETE /gists/:gist_id/comments/:comment_id", expect: USER_SCOPE },
  { route: "POST /gists/:gist_id/forks", expect: USER_SCOPE },
  { route: "PUT /gists/:gist_id/star", expect: USER_SCOPE },
  { route: "DELETE /gists/:gist_id/star", expect: USER_SCOPE },
  { route: "GET /user/interaction-limits", expect: USER_SCOPE },
  { route: "PUT /user/interaction-limits", expect: USER_SCOPE },
  { route: "DELETE /user/interaction-limits", expect: USER_SCOPE },
  // Plan (r).
  { route: `GET ${BILLING_USAGE}/ai_credit/usage`, expect: USER_SCOPE },
  { route: `GET ${BILLING_USAGE}/premium_request/usage`, expect: USER_SCOPE },
  { route: `GET ${BILLING_USAGE}/usage`, expect: USER_SCOPE },
  { route: `GET ${BILLING_USAGE}/usage/summary`, expect: USER_SCOPE },
  { route: "PATCH /user", expect: USER_SCOPE },
  { route: "POST /user/social_accounts", expect: USER_SCOPE },
  { route: "DELETE /user/social_accounts", expect: USER_SCOPE },
  // Watching: the user's own list (UAT only, no scope), anyone's (UAT IAT, public).
  { route: "GET /user/subscriptions", expect: grantedTo(...ANY_CLASSIC, "fineGrained", "uat") },
  { route: "GET /users/:username/subscriptions", expect: { ...anyToken(501), none: 501 } },
];

const ROWS: Row[] = [
  ...META,
  ...REPO_HOOKS,
  ...GLOBAL_HOOKS,
  ...MEMBERSHIPS,
  ...RUNNER_GROUPS,
  ...PROTECTION_RULES,
  ...ORG_HOOKS,
  ...ENVIRONMENTS,
  ...PROPERTY_VALUES,
  ...BUDGETS,
  ...PRIVATE_REGISTRIES,
  ...USER_KEYS,
  ...NOTIFICATIONS,
  ...ORG_ADMIN,
  ...STATISTICS,
  ...BRANCHES,
  ...SECURITY,
  ...ORG_CONFIG,
  ...ACTIONS,
  ...REPOSITORIES,
  ...ORG_SETTINGS,
  ...TEAMS,
  ...COLLABORATORS,
  ...RULES_AND_ROLES,
  ...NOT_MODELLED,
];

let emulator: RunningEmulator;
let world: World;
/**
 * The state after the last reset and seed, as `GET /_emulator/state` answers it: what every refused
 * request must leave as it is. Compared as text first: the same text is the same state, and only a
 * different one is parsed and compared field by field (to show the difference).
 */
let baseline: string;
/** The stored state after the seed, which later resets put back (`restoreState`). */
let seeded: Buffer | undefined;

/** Resets and seeds the world the first time; then puts the seeded state back, the same state. */
async function resetWorld(): Promise<void> {
  if (seeded) {
    restoreState(emulator, seeded);
    expect(await stateText(emulator)).toBe(baseline);
    return;
  }
  expect((await control(emulator, "POST", "/reset")).status).toBe(204);
  world = await seedWorld(emulator);
  baseline = await stateText(emulator);
  seeded = serialize(emulator.store.raw);
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  // Ten callers on every route, and the state read after each: answered in process.
  dispatchInProcess(emulator);
  await resetWorld();
});

afterAll(async () => {
  await emulator?.close();
});

describe("auth matrix", () => {
  it("has a row for every route the server serves, and no other", () => {
    const served = servedRoutes();
    expect(ROWS.map((r) => r.route).sort()).toEqual(served);
  });

  it(`covers ${ROWS.length} routes x ${Object.keys(CALLERS).length} kinds of caller`, () => {
    expect(new Set(ROWS.map((r) => r.route)).size).toBe(ROWS.length);
  });

  it.each(ROWS)("$route", async (row) => {
    const [method, template] = row.route.split(" ") as [string, string];
    const actual = {} as Expected;
    for (const [kind, token] of Object.entries(CALLERS) as Array<[Kind, string | null]>) {
      const path = fillRoute(template, world, UNMODELLED_PARAMS);
      const response = await call(emulator, method, path, {
        token,
        redirect: "manual",
        ...(row.body === undefined ? {} : { body: row.body }),
        // A route that exists in one API version only is asked in that version.
        headers: requiredHeaders(row.route),
      });
      actual[kind] = response.status;
      const what = `${kind}: ${method} ${path} -> ${response.status}`;
      // Every answer of a guarded route names what the endpoint accepts (Authentication 8).
      expect(response.headers.get("x-accepted-service-permissions"), what).not.toBeNull();
      // A route the sandbox does not model says so, by name, in its body and a header.
      const name = `${method} ${template.replace(/:([a-z_]+)/g, "{$1}")}`;
      if (response.status === 501) {
        expect(response.headers.get("x-sandbox-not-modelled"), what).toBe(name);
        expectErrorBody(
          response.body,
          `The sandbox server does not model ${name}: the route exists on the platform, but its request and response bodies are not specified`,
        );
      } else {
        expect(response.headers.get("x-sandbox-not-modelled"), what).toBeNull();
      }
      const after = await stateText(emulator);
      if (after === baseline) continue;
      if (response.status >= 300) {
        expect(JSON.parse(after), `${what} changed the state`).toEqual(JSON.parse(baseline));
      } else {
        await resetWorld();
      }
    }
    expect(actual).toEqual(row.expect);
  });
});
