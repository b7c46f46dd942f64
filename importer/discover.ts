/**
 * Discovery: walks an installation and lists every object the token can see as the resource that
 * adopts it. What to list, and how, is each kind's own `discovery` declaration (provider/resources);
 * this module only walks the places (each organisation, each of its repositories, the enterprise,
 * the installation, the signed-in user) and asks every kind declared for that place. Each object
 * found is then read through its kind's own provider, so the arguments written are exactly what the
 * provider's read reports (what refresh will compare with), never a second mapping of the API.
 *
 * A family the token may not read (401, 403, or a 404 that hides it) is skipped with one warning,
 * and the rest is still read; any other failure stops discovery.
 */

import { MASKED_SECRET, ROUTES } from "../api";
import { isHostingApiError } from "../provider/client/errors";
import type { HostingClient } from "../provider/client/http";
import type { DiscoveryPlace, DiscoveryScope, Found, Reference } from "../provider/internal/declare";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { IMPORTED, type InventoryItem, type Kind, type ModuleKey } from "./inventory";
import { hasLoneSurrogate } from "./text";

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

/** An object found and read, before its references are settled. */
interface Record_ {
  provider: AnyHostingProvider;
  found: Found;
  module: ModuleKey;
  inputs: Record<string, unknown>;
  label: string | undefined;
}

export async function discover(c: HostingClient, scope: Scope, progress: Progress): Promise<Discovery> {
  const records: Record_[] = [];
  const warnings: string[] = [];
  const failures: string[] = [];
  const kindsOf = (where: DiscoveryScope) =>
    IMPORTED.filter((p) => p.declared.discovery?.scope === where && scope.kinds.has(p.kind));

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

  /** A place's reads shared by the kinds listed there. */
  const placeOf = (at: Omit<DiscoveryPlace, "orgs" | "once">): DiscoveryPlace => {
    const reads = new Map<string, Promise<unknown>>();
    return {
      ...at,
      orgs: scope.orgs,
      once: <T>(key: string, read: () => Promise<T>) => {
        if (!reads.has(key)) reads.set(key, read());
        return reads.get(key) as Promise<T>;
      },
    };
  };

  /** Lists one kind at one place and reads each object found through the kind's provider. */
  const list = (provider: AnyHostingProvider, place: DiscoveryPlace, module: ModuleKey) => {
    const discovery = provider.declared.discovery;
    if (discovery === undefined) return Promise.resolve();
    return family(discovery.what(place), async () => {
      const found = await discovery.list(c, place);
      await Promise.all(
        found.map(async (f) => {
          let inputs = f.inputs;
          let label = f.label;
          if (inputs === undefined) {
            const read = await provider.read(f.id, {});
            if (read.inputs === undefined) return; // gone since it was listed
            inputs = read.inputs as Record<string, unknown>;
            label ??= discovery.labelOf?.(read.props as Record<string, unknown>);
            const changed = normalisedAway(provider, read.props as Record<string, unknown>, inputs);
            if (changed.length > 0) {
              warnings.push(
                `left out ${provider.kind} ${JSON.stringify(f.id)}: ${changed.join(", ")} under the provider's check (which trims blanks, among others), so the first up would write it; correct the object on the server and import again`,
              );
              return;
            }
          }
          records.push({ provider, found: f, module, inputs, label });
        }),
      );
    });
  };

  for (const org of scope.orgs) {
    const module: ModuleKey = { org };
    progress(`${org}: reading the organisation`);
    const orgPlace = placeOf({ org });
    await Promise.all(kindsOf("org").map((p) => list(p, orgPlace, module)));
    const repoKinds = kindsOf("repository");
    if (repoKinds.length === 0) continue;
    await family(`repositories of ${org}`, async () => {
      const repos = (await c.paginate(ROUTES.repositories.listForOrg, { org })).filter(
        (r) => scope.repos.size === 0 || scope.repos.has(`${r.owner.login}/${r.name}`.toLowerCase()),
      );
      progress(`${org}: ${repos.length} ${repos.length === 1 ? "repository" : "repositories"}`);
      let done = 0;
      await Promise.all(
        repos.map(async (r) => {
          const place = placeOf({ org, owner: r.owner.login, repo: r.name });
          await Promise.all(repoKinds.map((p) => list(p, place, module)));
          done++;
          if (done % 100 === 0 && done < repos.length)
            progress(`${org}: ${done}/${repos.length} repositories read`);
        }),
      );
    });
  }

  if (scope.enterprise !== undefined) {
    const enterprise = scope.enterprise;
    progress(`${enterprise}: reading the enterprise`);
    const place = placeOf({ enterprise });
    await Promise.all(kindsOf("enterprise").map((p) => list(p, place, { enterprise })));
  }

  if (scope.siteAdmin) {
    progress("site administration: reading global objects and the organisations named with --org");
    const place = placeOf({});
    await Promise.all(kindsOf("siteAdmin").map((p) => list(p, place, { siteAdmin: true })));
  }

  if (scope.user) {
    progress("the signed-in user: reading keys");
    const place = placeOf({});
    await Promise.all(kindsOf("user").map((p) => list(p, place, { user: true })));
  }

  // An object no program can carry is left out, named, with the reason; a reference to it is
  // then written as the value it stands for, as for any object not adopted.
  const carried = records.filter((r) => {
    const field = uncarriable(r.found.id, r.inputs);
    if (field === undefined) return true;
    warnings.push(
      `left out ${r.provider.kind} ${JSON.stringify(r.found.id)}: ${field} holds a lone UTF-16 surrogate, which no Pulumi program can carry (the engine speaks UTF-8, and the first up would rewrite it); correct it on the server and import again`,
    );
    return false;
  });
  // A reference stands only where the object it names is adopted too; elsewhere the value is written.
  const adopted = new Set(carried.map((r) => `${r.provider.kind}\u0000${r.found.id}`));
  const items = carried.map((r) => {
    const refs = Object.fromEntries(
      Object.entries(r.found.refs ?? {}).filter(([, ref]) => adopted.has(`${ref.kind}\u0000${ref.id}`)),
    );
    const item = itemOf(r.provider, r.found, r.module, r.inputs, refs);
    if (r.label) item.label = r.label;
    return item;
  });
  return { items, warnings: warnings.sort(), failures: failures.sort() };
}

/**
 * Where an object holds a value no Pulumi program can carry (a lone UTF-16 surrogate: the engine
 * speaks UTF-8, so any language writes something else on the first up): `its id`, or the path of
 * the argument (`its description`, `its options[1].name`); undefined where it holds none.
 */
export function uncarriable(id: string, inputs: Record<string, unknown>): string | undefined {
  if (hasLoneSurrogate(id)) return "its id";
  const find = (value: unknown, path: string): string | undefined => {
    if (typeof value === "string") return hasLoneSurrogate(value) ? path : undefined;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) {
        const found = find(v, `${path}[${i}]`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        const found = hasLoneSurrogate(k) ? `${path}.${JSON.stringify(k)}` : find(v, `${path}.${k}`);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  for (const [key, value] of Object.entries(inputs)) {
    const found = find(value, key);
    if (found !== undefined) return `its ${found}`;
  }
  return undefined;
}

/**
 * The fields of an object whose value on the server the provider's check would change (a name
 * with blanks around it, which the kind trims) and which diff then finds changed: a program can
 * only write the value, and its first up would write the normalised one. Each as `its name "  a "
 * becomes "a"` (the values left out for a secret field); none where the inputs do not pass check
 * (preview names those).
 */
function normalisedAway(
  provider: AnyHostingProvider,
  props: Record<string, unknown>,
  inputs: Record<string, unknown>,
): string[] {
  try {
    const normalised = provider.inputsOf(inputs) as Record<string, unknown>;
    return provider
      .changedFields(props, inputs)
      .filter((k) => k in inputs && JSON.stringify(normalised[k]) !== JSON.stringify(inputs[k]))
      .map((k) =>
        provider.secrets.includes(k)
          ? `its ${k} changes`
          : `its ${k} ${JSON.stringify(inputs[k])} becomes ${JSON.stringify(normalised[k])}`,
      );
  } catch {
    return [];
  }
}

/** What the program says of an adopted object that its kind leaves to `retainOnDelete`. */
export const RETAINED =
  "Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).";

/**
 * The resource that adopts an object: its arguments as a person writes them (defaults left out,
 * `importId` where the kind has one), and the secrets the API never returns read from config.
 */
function itemOf(
  provider: AnyHostingProvider,
  found: Found,
  module: ModuleKey,
  inputs: Record<string, unknown>,
  refs: Record<string, Reference>,
): InventoryItem {
  const declared = provider.declared;
  const args: Record<string, unknown> = { ...inputs };
  const secrets: Record<string, string> = {};
  for (const key of Object.keys(refs)) delete args[key];
  // The server holds a secret it never shows: the program reads it from config.
  const needsSecret =
    declared.discovery?.needsSecret ??
    ((read: Record<string, unknown>) =>
      declared.secrets.some((k) => read[k] !== undefined && read[k] !== MASKED_SECRET));
  for (const key of declared.secrets) delete args[key];
  if (declared.secrets.length > 0 && needsSecret(inputs)) {
    for (const key of declared.secrets) secrets[key] = "";
  }
  delete args.importId;
  // A list compared as a set is written sorted, so two imports of the same installation write the
  // same bytes whatever order the server lists them in; an ordered list (a property's allowed
  // values) keeps the server's order, which is its meaning.
  for (const [key, value] of Object.entries(args)) {
    if (declared.rules[key]?.set !== true) continue;
    if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
      args[key] = [...value].sort((a, b) =>
        typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)),
      );
    }
  }
  // An adopting resource's arguments are read with its importId (an Organization needs no admin then).
  const importId = declared.adopts ? found.importId : undefined;
  const kept = withoutDefaults(provider, args, secrets, importId === undefined ? {} : { importId });
  if (importId !== undefined) kept.importId = importId;
  const own = declared.discovery?.adopted;
  Object.assign(kept, own?.args);
  const adopted = own
    ? { comment: own.comment, retainOnDelete: false }
    : { comment: RETAINED, retainOnDelete: true };
  return { kind: provider.kind, id: found.id, name: "", module, args: kept, secrets, refs, adopted };
}

/** The arguments without those equal to what the resource would use if they were left out. */
function withoutDefaults(
  provider: AnyHostingProvider,
  args: Record<string, unknown>,
  secrets: Record<string, string>,
  adopting: Record<string, unknown> = {},
): Record<string, unknown> {
  const identity = new Set(provider.declared.identity);
  const placeholders = { ...adopting, ...Object.fromEntries(Object.keys(secrets).map((k) => [k, "secret"])) };
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (identity.has(key)) {
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
