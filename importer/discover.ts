/**
 * Discovery: walks an installation and lists every object the token can see as the resource that
 * adopts it. Lists are read at the largest page size, in parallel within the client's limits; each
 * object found is then read through its kind's own provider, so the arguments written are exactly
 * what the provider's read reports (what refresh will compare with), never a second mapping of the
 * API that could drift from it.
 *
 * A family the token may not read (401, 403, or a 404 that hides it) is skipped with one warning,
 * and the rest is still read; any other failure stops discovery.
 */

import { isHostingApiError } from "../provider/client/errors";
import type { HostingClient } from "../provider/client/http";
import { type ListRoute, type NoParams, ROUTES } from "../provider/client/routes";
import { MASKED_SECRET } from "../provider/client/schemas";
import { joinId } from "../provider/internal/ids";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { PROVIDERS } from "../provider/providers";
import { budgetApi } from "../provider/resources/budgets/budget-api";
import { registryApi } from "../provider/resources/private-registries/registry-api";
import type { InventoryItem, Kind, ModuleKey, Reference } from "./inventory";

/** Kinds that adopt with `importId`; the others are keyed by names and adopt by construction. */
const IMPORT_ID: ReadonlySet<string> = new Set([
  "RepositoryWebhook",
  "GlobalWebhook",
  "OrgRunnerGroup",
  "EnterpriseRunnerGroup",
  "Budget",
  "PrivateRegistry",
  "UserGpgKey",
  "UserSshKey",
  "UserSshSigningKey",
  "IssueType",
  "IssueField",
  "Organization",
]);

/** Arguments that name the object; always written, never compared with a default. */
const IDENTITY = new Set([
  "org",
  "owner",
  "repository",
  "enterprise",
  "username",
  "propertyName",
  "environment",
]);

export interface Scope {
  orgs: string[];
  enterprise?: string | undefined;
  siteAdmin: boolean;
  /** Read the signed-in user's (the token's user's) GPG, SSH and SSH signing keys. */
  user?: boolean | undefined;
  /** `owner/name` (lower case) of the only repositories to read; all when empty. */
  repos: ReadonlySet<string>;
  kinds: ReadonlySet<Kind>;
}

export interface Discovery {
  items: InventoryItem[];
  warnings: string[];
  /** Failures that are not a missing permission: the import is incomplete. */
  failures: string[];
}

/** Lines of progress (stderr). */
export type Progress = (line: string) => void;

const providerOf = new Map(PROVIDERS.map((p) => [p.kind, p]));

export async function discover(c: HostingClient, scope: Scope, progress: Progress): Promise<Discovery> {
  const found: InventoryItem[] = [];
  const warnings: string[] = [];
  const failures: string[] = [];
  const wants = (kind: Kind) => scope.kinds.has(kind);

  /** Runs one family's discovery; a missing permission skips it with a warning. */
  const family = async (what: string, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      if (isHostingApiError(e) && [401, 403, 404].includes(e.status ?? 0)) {
        warnings.push(`skipped ${what}: ${e.message}`);
      } else {
        failures.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };

  /** Reads an object through its kind's provider and records it as the resource that adopts it. */
  const adopt = async (
    kind: Kind,
    id: string,
    module: ModuleKey,
    extra: { importId?: string | number; refs?: Record<string, Reference> } = {},
  ): Promise<InventoryItem | undefined> => {
    const provider = providerOf.get(kind) as AnyHostingProvider;
    const read = await provider.read(id, {});
    if (read.inputs === undefined) return undefined; // gone since it was listed
    const item = itemOf(provider, kind, id, module, read.inputs as Record<string, unknown>, extra);
    // A protection rule is known by its app.
    const app = (read.props as { app?: { slug?: string } }).app;
    if (app?.slug) item.label = app.slug;
    found.push(item);
    return item;
  };

  for (const org of scope.orgs) {
    const module: ModuleKey = { org };
    progress(`${org}: reading the organisation`);
    const orgFamilies: Array<Promise<void>> = [];
    if (wants("OrgMembership")) {
      orgFamilies.push(
        family(`memberships of ${org}`, async () => {
          for (const m of await memberships(c, org)) {
            found.push(
              itemOf(
                providerOf.get("OrgMembership") as AnyHostingProvider,
                "OrgMembership",
                joinId(org, m.username),
                module,
                { org, username: m.username, role: m.role },
                {},
              ),
            );
          }
        }),
      );
    }
    if (wants("OrgRunnerGroup") || wants("RunnerGroupRunners")) {
      orgFamilies.push(
        family(`runner groups of ${org}`, async () => {
          const groups = await c.paginate(ROUTES.orgRunnerGroups.list, { org });
          await Promise.all(
            groups

              .filter((g) => !g.default)
              .map(async (g) => {
                const groupId = joinId(org, g.id);
                const group = wants("OrgRunnerGroup")
                  ? await adopt("OrgRunnerGroup", groupId, module, { importId: g.id })
                  : undefined;
                if (!wants("RunnerGroupRunners")) return;
                const runners = await (providerOf.get("RunnerGroupRunners") as AnyHostingProvider).read(
                  groupId,
                  {},
                );
                const listed = (runners.inputs as { runners?: number[] } | undefined)?.runners ?? [];
                if (listed.length === 0) return;
                const ref: Reference | undefined = group
                  ? { kind: "OrgRunnerGroup", id: groupId, output: "runnerGroupId" }
                  : undefined;
                const item = itemOf(
                  providerOf.get("RunnerGroupRunners") as AnyHostingProvider,
                  "RunnerGroupRunners",
                  groupId,
                  module,
                  runners.inputs as Record<string, unknown>,
                  ref ? { refs: { runnerGroupId: ref } } : {},
                );
                item.label = g.name;
                found.push(item);
              }),
          );
        }),
      );
    }
    if (wants("PrivateRegistry")) {
      orgFamilies.push(
        family(`private registries of ${org}`, async () => {
          const registries = await registryApi(c).list(org);
          await Promise.all(
            registries.map((r) =>
              adopt("PrivateRegistry", joinId(org, r.name), module, { importId: r.name }),
            ),
          );
        }),
      );
    }
    if (wants("OrgPropertyValue")) {
      orgFamilies.push(
        family(`organisation property values of ${org}`, async () => {
          const values = await c.paginate(ROUTES.propertyValues.org, { org });
          await Promise.all(
            values
              .filter((v) => v.value !== null)
              .map((v) => adopt("OrgPropertyValue", joinId(org, v.property_name), module)),
          );
        }),
      );
    }
    if (wants("IssueType")) {
      orgFamilies.push(
        family(`issue types of ${org}`, async () => {
          const types = await c.paginate(ROUTES.issueTypes.list, { org });
          await Promise.all(
            types.map((t) => adopt("IssueType", joinId(org, t.id), module, { importId: t.id })),
          );
        }),
      );
    }
    if (wants("IssueField")) {
      orgFamilies.push(
        family(`issue fields of ${org}`, async () => {
          const fields = await c.paginate(ROUTES.issueFields.list, { org });
          await Promise.all(
            fields.map((f) => adopt("IssueField", joinId(org, f.id), module, { importId: f.id })),
          );
        }),
      );
    }
    if (wants("OrgBlock")) {
      orgFamilies.push(
        family(`blocked users of ${org}`, async () => {
          // The list is the read: a block is its pair of names, so no read per block.
          for (const user of await c.paginate(ROUTES.orgBlocks.list, { org })) {
            found.push(
              itemOf(
                providerOf.get("OrgBlock") as AnyHostingProvider,
                "OrgBlock",
                joinId(org, user.login),
                module,
                { org, username: user.login },
                {},
              ),
            );
          }
        }),
      );
    }
    await Promise.all(orgFamilies);
    if (wants("RepositoryWebhook") || wants("RepositoryPropertyValue") || wants("DeploymentProtectionRule")) {
      await family(`repositories of ${org}`, async () => {
        const repos = (await c.paginate(ROUTES.meta.orgRepos, { org })).filter(
          (r) => scope.repos.size === 0 || scope.repos.has(`${r.owner.login}/${r.name}`.toLowerCase()),
        );
        progress(`${org}: ${repos.length} ${repos.length === 1 ? "repository" : "repositories"}`);
        let done = 0;
        await Promise.all(
          repos.map(async (r) => {
            await repository(r.owner.login, r.name, module);
            done++;
            if (done % 100 === 0 && done < repos.length)
              progress(`${org}: ${done}/${repos.length} repositories read`);
          }),
        );
      });
    }
  }

  async function repository(owner: string, repo: string, module: ModuleKey): Promise<void> {
    const where = `${owner}/${repo}`;
    const parts: Array<Promise<void>> = [];
    if (wants("RepositoryWebhook")) {
      parts.push(
        family(`webhooks of ${where}`, async () => {
          const hooks = await c.paginate(ROUTES.repoHooks.list, { owner, repo });
          await Promise.all(
            hooks.map((h) =>
              adopt("RepositoryWebhook", joinId(owner, repo, h.id), module, { importId: h.id }),
            ),
          );
        }),
      );
    }
    if (wants("RepositoryPropertyValue")) {
      parts.push(
        family(`property values of ${where}`, async () => {
          const values = (await c.get(ROUTES.propertyValues.repo, { owner, repo })).data;
          await Promise.all(
            values
              .filter((v) => v.value !== null)
              .map((v) => adopt("RepositoryPropertyValue", joinId(owner, repo, v.property_name), module)),
          );
        }),
      );
    }
    if (wants("DeploymentProtectionRule")) {
      parts.push(
        family(`deployment protection rules of ${where}`, async () => {
          const envs = await c.paginate(ROUTES.protectionRules.environments, { owner, repo });
          await Promise.all(
            envs.map(async (env) => {
              const rules = { owner, repo, environment_name: env.name };
              const list = (await c.get(ROUTES.protectionRules.list, rules)).data;
              await Promise.all(
                list.custom_deployment_protection_rules.map((rule) =>
                  adopt("DeploymentProtectionRule", joinId(owner, repo, env.name, rule.id), module),
                ),
              );
            }),
          );
        }),
      );
    }
    await Promise.all(parts);
  }

  if (scope.enterprise !== undefined) {
    const ent = scope.enterprise;
    const module: ModuleKey = { enterprise: ent };
    progress(`${ent}: reading the enterprise`);
    const parts: Array<Promise<void>> = [];
    if (wants("EnterpriseRunnerGroup")) {
      parts.push(
        family(`runner groups of the enterprise ${ent}`, async () => {
          const groups = await c.paginate(ROUTES.enterpriseRunnerGroups.list, { enterprise: ent });
          await Promise.all(
            groups
              .filter((g) => !g.default)
              .map((g) => adopt("EnterpriseRunnerGroup", joinId(ent, g.id), module, { importId: g.id })),
          );
        }),
      );
    }
    if (wants("Budget")) {
      parts.push(
        family(`budgets of the enterprise ${ent}`, async () => {
          const budgets = await budgetApi(c, ent).list();
          await Promise.all(
            budgets.map((b) => adopt("Budget", joinId(ent, b.id), module, { importId: b.id })),
          );
        }),
      );
    }
    await Promise.all(parts);
  }

  if (scope.siteAdmin && wants("GlobalWebhook")) {
    progress("site administration: reading global webhooks");
    await family("global webhooks", async () => {
      const hooks = await c.paginate(ROUTES.globalHooks.list, {});
      await Promise.all(
        hooks.map((h) => adopt("GlobalWebhook", String(h.id), { siteAdmin: true }, { importId: h.id })),
      );
    });
  }

  if (scope.user) {
    progress("the signed-in user: reading keys");
    /** One kind of the user's keys, each labelled for its resource name. */
    const userKeys = async <T extends { id: number }>(
      kind: Kind,
      route: ListRoute<NoParams, T>,
      labelOf: (key: T) => string | null | undefined,
    ): Promise<void> => {
      if (!wants(kind)) return;
      await family(`${kind} keys of the signed-in user`, async () => {
        const keys = await c.paginate(route, {});
        await Promise.all(
          keys.map(async (k) => {
            const item = await adopt(kind, String(k.id), { user: true }, { importId: k.id });
            const label = labelOf(k);
            if (item && label) item.label = label;
          }),
        );
      });
    };
    await Promise.all([
      userKeys("UserGpgKey", ROUTES.gpgKeys.list, (k) => k.name || k.emails?.[0]?.email || k.key_id),
      userKeys("UserSshKey", ROUTES.sshKeys.list, (k) => k.title),
      userKeys("UserSshSigningKey", ROUTES.sshSigningKeys.list, (k) => k.title),
    ]);
  }

  if (scope.siteAdmin && wants("Organization")) {
    // The API lists no organisations: those named with --org are adopted by login.
    progress("site administration: reading the organisations named with --org");
    await family("organisations", async () => {
      await Promise.all(
        scope.orgs.map((org) => adopt("Organization", org, { siteAdmin: true }, { importId: org })),
      );
    });
  }

  return { items: found, warnings: warnings.sort(), failures: failures.sort() };
}

/** Members (with their role) and pending invitations of an organisation. */
async function memberships(
  c: HostingClient,
  org: string,
): Promise<Array<{ username: string; role: string }>> {
  const [admins, members, invitations] = await Promise.all([
    c.paginate(ROUTES.members.list, { org }, { query: { role: "admin" } }),
    c.paginate(ROUTES.members.list, { org }, { query: { role: "member" } }),
    c.paginate(ROUTES.members.invitations, { org }),
  ]);
  return [
    ...admins.map((u) => ({ username: u.login, role: "admin" })),
    ...members.map((u) => ({ username: u.login, role: "member" })),
    ...invitations
      .filter((i): i is { login: string; role: string } => i.login !== null)
      .map((i) => ({ username: i.login, role: i.role === "admin" ? "admin" : "member" })),
  ];
}

/**
 * The resource that adopts an object: its arguments as a person writes them (defaults left out,
 * `importId` where the kind has one), and the secrets the API never returns read from config.
 */
function itemOf(
  provider: AnyHostingProvider,
  kind: Kind,
  id: string,
  module: ModuleKey,
  inputs: Record<string, unknown>,
  extra: { importId?: string | number; refs?: Record<string, Reference> },
): InventoryItem {
  const args: Record<string, unknown> = { ...inputs };
  const secrets: Record<string, string> = {};
  for (const key of Object.keys(extra.refs ?? {})) delete args[key];
  if (kind === "RepositoryWebhook" || kind === "GlobalWebhook") {
    // The server holds a secret it never shows: the program reads it from config.
    delete args.secret;
    if (inputs.secret !== undefined && inputs.secret !== MASKED_SECRET) secrets.secret = "";
  }
  if (kind === "PrivateRegistry") {
    delete args.value;
    // OIDC registries hold no value; token and password ones do, and it cannot be read.
    if (!String(args.authType ?? "token").startsWith("oidc_")) secrets.value = "";
  }
  delete args.importId;
  // Every list of this library's kinds is compared as a set: written sorted, so two imports of
  // the same installation write the same bytes whatever order the server lists them in.
  for (const [key, value] of Object.entries(args)) {
    if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
      args[key] = [...value].sort((a, b) =>
        typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)),
      );
    }
  }
  // An adopting resource's arguments are read with its importId (an Organization needs no admin then).
  const importId = IMPORT_ID.has(kind) ? extra.importId : undefined;
  const defaults = withoutDefaults(provider, args, secrets, importId === undefined ? {} : { importId });
  if (IMPORT_ID.has(kind) && extra.importId !== undefined) defaults.importId = extra.importId;
  return { kind, id, name: "", module, args: defaults, secrets, refs: extra.refs ?? {} };
}

/** The arguments without those equal to what the resource would use if they were left out. */
function withoutDefaults(
  provider: AnyHostingProvider,
  args: Record<string, unknown>,
  secrets: Record<string, string>,
  adopting: Record<string, unknown> = {},
): Record<string, unknown> {
  const placeholders = { ...adopting, ...Object.fromEntries(Object.keys(secrets).map((k) => [k, "secret"])) };
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (IDENTITY.has(key)) {
      kept[key] = value;
      continue;
    }
    const { [key]: _left, ...rest } = args;
    let reading: Record<string, unknown> | undefined;
    try {
      reading = provider.inputsOf({ ...rest, ...placeholders }) as Record<string, unknown>;
    } catch {
      reading = undefined; // required: it cannot be left out
    }
    if (reading === undefined || canonical(reading[key]) !== canonical(value)) kept[key] = value;
  }
  return kept;
}

/** Order-insensitive for lists (the defaults this compares are sets or scalars). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify([...value].map((v) => JSON.stringify(v)).sort());
  return JSON.stringify(value ?? null);
}
