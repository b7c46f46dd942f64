/**
 * What discovery finds, apart from how it is written out: each object as the resource that adopts
 * it (kind, the id the provider uses, the arguments a program gives it), which secrets it needs from
 * stack config, and which arguments refer to another object's outputs. `--format json` prints it as
 * it is; the TypeScript program writer is one consumer of it.
 */

import type { DiscoveryScope, Reference } from "../provider/internal/declare";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { PROVIDERS } from "../provider/providers";

/** The order of the places discovery reads, and of the modules a program is written in. */
const SCOPE_ORDER: readonly DiscoveryScope[] = ["org", "repository", "enterprise", "siteAdmin", "user"];

/**
 * Every kind an import knows (those that declare a `discovery`), in the order a module declares
 * them: organisation settings first, then repositories', then the enterprise's and the site
 * administration's, then the signed-in user's keys; within a place, in the registry's order.
 */
export const IMPORTED: readonly AnyHostingProvider[] = PROVIDERS.filter(
  (p) => p.declared.discovery !== undefined,
).sort(
  (a, b) =>
    SCOPE_ORDER.indexOf(a.declared.discovery?.scope ?? "org") -
    SCOPE_ORDER.indexOf(b.declared.discovery?.scope ?? "org"),
);

export const KINDS: readonly string[] = IMPORTED.map((p) => p.kind);
export type Kind = string;

/** The provider of an imported kind. */
export function providerOf(kind: string): AnyHostingProvider | undefined {
  return IMPORTED.find((p) => p.kind === kind);
}

/**
 * Where an object is written: one module per organisation, one per enterprise, one for site-admin
 * objects, one for the signed-in user's keys.
 */
export type ModuleKey = { org: string } | { enterprise: string } | { siteAdmin: true } | { user: true };

export type { Reference };

export interface InventoryItem {
  /** The resource kind, e.g. `RepositoryWebhook`. */
  kind: string;
  /** The id the provider gives the resource (`owner/repository/hookId`). */
  id: string;
  /** The resource name in the program: stable, readable, unique (see naming.ts). */
  name: string;
  /** What a person calls the object where its arguments do not say (an app's slug, a group's name). */
  label?: string;
  module: ModuleKey;
  /**
   * The arguments as a person would write them: values equal to the resource's default left out,
   * `importId` set where the kind has one. Secrets and references are not here.
   */
  args: Record<string, unknown>;
  /** Arguments read from stack config with `requireSecret`: argument name -> config key. */
  secrets: Record<string, string>;
  /** Arguments that take another object's output. */
  refs: Record<string, Reference>;
  /**
   * The object existed before the stack: what destroy and removal from the program do to it, as
   * the comment written above the resource, and whether the resource keeps it (`retainOnDelete`)
   * rather than an argument of its own (a membership's `onDestroy`) deciding. Absent for an object
   * the program makes (the reference pages' examples): no comment, no import.
   */
  adopted?: { comment: string; retainOnDelete: boolean };
}

export interface Inventory {
  /** The format of this document. */
  format: 1;
  /** The API root it was read from. */
  apiRoot: string;
  items: InventoryItem[];
  /** Families skipped (e.g. for lack of a permission), one line each. */
  warnings: string[];
  /** How many API requests discovery made. */
  requests: number;
}

/** The module of the signed-in user's keys. */
export const USER_MODULE = "user-keys";

/**
 * Names an organisation's own folder may not take: the other modules' (`enterprise-...`,
 * `site-admin`, `user-keys`), what a fleet's root holds beside its projects (`node_modules`, the
 * shared `venv`, `package.json`, `package-lock.json`), and names hidden from a listing. Compared
 * without case, as a case-insensitive file system would.
 */
const NOT_AN_ORG_FOLDER =
  /^(?:enterprise-.*|org-.*|site-admin|user-keys|node_modules|venv|package(?:-lock)?\.json|\..*)$/i;

/**
 * The file (without extension) a module is written to, and with `--split` its project's folder and
 * name: the organisation's login, the enterprise's slug after `enterprise-`, `site-admin`,
 * `user-keys`. One kind of place never takes another's: an organisation whose login looks like
 * another module's (`enterprise-acme`, `site-admin`) or like anything else NOT_AN_ORG_FOLDER names
 * is written as `org-<login>`, and since every login that begins with `org-` is written so too,
 * two places never share a file.
 */
export function moduleFile(key: ModuleKey): string {
  if ("org" in key) return NOT_AN_ORG_FOLDER.test(key.org) ? `org-${key.org}` : key.org;
  if ("enterprise" in key) return `enterprise-${key.enterprise}`;
  if ("user" in key) return USER_MODULE;
  return "site-admin";
}
