/**
 * Authentication and authorisation as the spec describes them: a bearer token of a known kind;
 * classic scopes per endpoint; fine-grained and app permissions per endpoint; app and fine-grained
 * tokens refused where stated; site-administration routes answering 404 to everyone else; public
 * routes served to anonymous callers. `guard.ts` applies them to every API route.
 */
import type { Context } from "hono";
import type { Caller, ServerEnv } from "./context";
import type { OrgRecord, TokenKind } from "./fixture";
import { ApiFailure, forbidden, notFound, unauthorized } from "./http";
import { activeMember } from "./members";
import { ownValue } from "./records";

/** Scopes that include others (the platform's scope hierarchy). */
const IMPLIED_SCOPES = new Map<string, string[]>([
  ["repo", ["public_repo", "repo:status", "repo_deployment", "repo:invite", "security_events"]],
  ["admin:org", ["write:org", "read:org"]],
  ["write:org", ["read:org"]],
  ["admin:repo_hook", ["write:repo_hook", "read:repo_hook"]],
  ["write:repo_hook", ["read:repo_hook"]],
  ["admin:org_hook", []],
  ["admin:gpg_key", ["write:gpg_key", "read:gpg_key"]],
  ["write:gpg_key", ["read:gpg_key"]],
  ["admin:public_key", ["write:public_key", "read:public_key"]],
  ["write:public_key", ["read:public_key"]],
  ["admin:ssh_signing_key", ["write:ssh_signing_key", "read:ssh_signing_key"]],
  ["write:ssh_signing_key", ["read:ssh_signing_key"]],
  ["user", ["read:user", "user:email", "user:follow"]],
  ["admin:enterprise", ["manage_runners:enterprise", "manage_billing:enterprise", "read:enterprise"]],
]);

export function expandScopes(scopes: readonly string[]): Set<string> {
  const all = new Set<string>();
  const visit = (s: string) => {
    if (all.has(s)) return;
    all.add(s);
    for (const implied of IMPLIED_SCOPES.get(s) ?? []) visit(implied);
  };
  for (const s of scopes) visit(s);
  return all;
}

/** Kinds of token an endpoint can refuse outright: every kind but classic (and OAuth) tokens. */
export type RefusableKind = Exclude<TokenKind, "classic">;

/**
 * The "app tokens" of the spec (Authentication 5): installation and user access tokens alike. A
 * route refusing app tokens lists both; a user token is refused where the spec says "UAT" is not
 * among the token kinds only when the rule says so.
 */
export const APP_TOKENS: readonly RefusableKind[] = ["app_installation", "app_user"];

export interface AccessRule {
  /** Classic scopes, any one of which grants access. */
  scopes?: string[];
  /** Fine-grained or app permission group and level, e.g. `["repository_hooks", "write"]`. */
  permission?: [group: string, level: "read" | "write"];
  /**
   * Token kinds the endpoint refuses outright: app and fine-grained tokens where the spec says so
   * (Authentication 5), installation tokens on "UAT only" rows of the permission matrix.
   */
  refuse?: readonly RefusableKind[];
  /** Site-administration route: classic token of a site administrator only, 404 to anyone else. */
  siteAdmin?: boolean;
  /**
   * Usable without authentication for public resources (the spec's "public"): a request without
   * a token, or with one the rule does not grant, is not refused; the route serves what the public
   * may see (see `grants`). An unknown token is still a 401.
   */
  public?: boolean;
}

/**
 * Resolves the Authorization header: undefined when there is none (an anonymous request), the
 * caller for a known token, 401 for anything else.
 */
export function authenticate(c: Context<ServerEnv>): Caller | undefined {
  const header = c.req.header("authorization");
  if (header === undefined) return undefined;
  const match = /^(?:bearer|token)\s+(\S+)$/i.exec(header.trim());
  if (!match?.[1]) throw unauthorized();
  const state = c.get("store").state;
  const token = ownValue(state.fixture.tokens, match[1]);
  if (!token) throw unauthorized("Bad credentials");
  const user = state.fixture.users.find((u) => u.login === token.user);
  return { token, user };
}

/**
 * Names what the endpoint accepts: `X-Accepted-Service-Permissions` always (empty when no
 * fine-grained or app permission grants it; docs/DECISIONS.md), `X-Accepted-OAuth-Scopes` when
 * classic scopes do.
 */
export function describeAccess(c: Context<ServerEnv>, rule: AccessRule): void {
  c.header(
    "X-Accepted-Service-Permissions",
    rule.permission ? `${rule.permission[0]}=${rule.permission[1]}` : "",
  );
  if (rule.scopes) c.header("X-Accepted-OAuth-Scopes", rule.scopes.join(", "));
}

/** Why the rule refuses the caller (the platform's answer), or undefined when it grants access. */
export function refusal(caller: Caller, rule: AccessRule): ApiFailure | undefined {
  const kind = caller.token.kind;
  if (rule.siteAdmin && !(kind === "classic" && caller.user?.siteAdmin)) return notFound();
  if (kind !== "classic" && rule.refuse?.includes(kind)) {
    return forbidden(
      kind === "fine_grained"
        ? "Resource not accessible by fine-grained personal access token"
        : "Resource not accessible by integration",
    );
  }
  if (kind === "classic") {
    if (rule.scopes && rule.scopes.length > 0) {
      const held = expandScopes(caller.token.scopes);
      if (!rule.scopes.some((s) => held.has(s))) {
        return new ApiFailure(
          403,
          `Your token has not been granted the required scopes: ${rule.scopes.join(" or ")}`,
        );
      }
    }
  } else if (rule.permission) {
    // Fine-grained, installation and user tokens alike: the permission group and its level.
    const [group, level] = rule.permission;
    const permissions = caller.token.permissions;
    const granted = ownValue(permissions, group) ?? ownValue(permissions, "*");
    if (!granted || (level === "write" && granted !== "write")) {
      return forbidden(
        kind === "fine_grained"
          ? "Resource not accessible by personal access token"
          : "Resource not accessible by integration",
      );
    }
  }
  return undefined;
}

/** Whether the rule grants the caller access (an anonymous caller never is granted). */
export function grants(caller: Caller | undefined, rule: AccessRule): boolean {
  return caller !== undefined && refusal(caller, rule) === undefined;
}

/** The authenticated caller of a guarded route (only public routes serve anonymous callers). */
export function callerOf(c: Context<ServerEnv>): Caller {
  const caller = c.get("caller");
  if (!caller) throw unauthorized();
  return caller;
}

/**
 * The caller's membership of an organisation, if any (installation tokens act for their org; user
 * tokens, classic and fine-grained tokens for their user).
 */
export function orgRole(caller: Caller | undefined, org: OrgRecord): "admin" | "member" | undefined {
  if (!caller) return undefined;
  if (caller.token.kind === "app_installation") {
    return caller.token.installationOrg === org.login ? "admin" : undefined;
  }
  const login = caller.user?.login;
  if (!login) return undefined;
  if (caller.user?.siteAdmin) return "admin";
  return activeMember(org, login)?.role;
}
