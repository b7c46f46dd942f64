/**
 * What an error tells the user to do: the hint of a 401 (where the token came from and how to use
 * a new one), of a 403 or 404 (what the endpoint needs, from the response headers), and the words
 * every 404 starts with. Errors are built in `errors.ts`.
 */

/** What every 404 says first: the platform answers 404 to a caller who may not see an object. */
export const NOT_FOUND = "Not found, or not allowed to this token";

export function likelyCauses(causes: readonly string[]): string {
  return `Likely causes, in order: ${causes.map((c, i) => `(${i + 1}) ${c}`).join("; ")}`;
}

/**
 * Where the token of a client came from, for what a 401 says: the place the user set it, and
 * whether the settings are the provider configuration the engine gave the provider process.
 */
export interface TokenOrigin {
  /** As the user writes it: `hosting:token`, `HOSTING_TOKEN`, or `TOKEN_OPTION` (a function's). */
  source?: string | undefined;
  /**
   * The settings came from the engine's `configure`: `pulumi refresh`, `pulumi preview --refresh`
   * and `pulumi destroy` give the configuration recorded in the state at the last update, not the
   * stack config as it is now (unless run with `--run-program`).
   */
  recorded?: boolean | undefined;
}

/** How a function's own `token` option is named as a token's source. */
export const TOKEN_OPTION = "the function's token option";

/**
 * What a 401 tells the user to do: set a valid token where it was set and, in the provider
 * process, how to make a command that runs without the program use a token changed since the last
 * update. The provider process cannot see the stack config as it is now (its `PULUMI_CONFIG` holds
 * only `pulumi-nodejs:*` keys), so the second part is a condition the user can check, right either way.
 */
export function unauthorizedHint(origin: TokenOrigin = {}): string {
  const from = origin.source === undefined ? "The token" : `The token from ${origin.source}`;
  const fix =
    origin.source === TOKEN_OPTION
      ? "pass a valid token"
      : "set hosting:token (or HOSTING_TOKEN) to a valid token";
  const hint = `${from} is unknown, expired or revoked: ${fix}`;
  if (!origin.recorded) return hint;
  return `${hint}. If hosting:token was changed since the last \`pulumi up\`: \`pulumi refresh\`, \`pulumi preview --refresh\` and \`pulumi destroy\` use the provider configuration recorded in the state at that update; add --run-program (Pulumi CLI 3.169 or later) to use the current one`;
}

/**
 * The platform's refusal to remove or demote an organisation's last owner: a rule of the
 * organisation, which no scope or permission lifts (the answer still names what the endpoint needs).
 */
const LAST_OWNER = /\bthe last owner of\b/i;

/** Builds the sentence that tells the user what the endpoint needs, from the response headers. */
export function permissionHint(
  status: number,
  acceptedPermissions: string | undefined,
  acceptedScopes: string | undefined,
  apiMessage?: string,
): string | undefined {
  if (status === 401) return unauthorizedHint();
  if (status !== 403 && status !== 404) return undefined;
  if (status === 403 && apiMessage !== undefined && LAST_OWNER.test(apiMessage)) {
    return "An organisation keeps at least one owner, whatever the token: make another member an owner (role admin) first, then remove or demote this one";
  }
  const needs: string[] = [];
  if (acceptedScopes) needs.push(`a classic token with one of the scopes ${acceptedScopes}`);
  if (acceptedPermissions)
    needs.push(`a fine-grained or app token with the permission ${acceptedPermissions}`);
  const endpoint = needs.length > 0 ? needs.join(", or ") : undefined;
  // The platform answers 404, not 403, to a caller who may not know the object exists: a 404 says
  // "not found or not allowed", and the causes are given in the order they are met in practice.
  if (status === 404) {
    return `${NOT_FOUND}. ${likelyCauses([
      "a name or id in the path is wrong, or the object was deleted",
      "the token's user cannot see it (not a member, or not an admin of it)",
      ...(endpoint ? [`the token lacks what the endpoint needs: ${endpoint}`] : []),
    ])}`;
  }
  return endpoint === undefined ? undefined : `This endpoint needs ${endpoint}`;
}
