import { API_VERSION_DEFAULT } from "../../api/route";
import { configurationError, type TokenOrigin } from "./errors";

export { API_VERSION_2026, API_VERSION_DEFAULT, KNOWN_API_VERSIONS } from "../../api/route";

/** The self-managed edition serves its REST API under this prefix of the installation host. */
export const SELF_MANAGED_API_PREFIX = "/api/v3";

export interface ClientSettings {
  /** The API root, without a trailing slash (e.g. `https://host/api/v3`). */
  apiRoot: string;
  token: string;
  /** Overrides the per-endpoint version when set (`hosting:apiVersion`). */
  apiVersion: string | undefined;
  /** Where the token was set, for what a 401 says (never the token itself). */
  tokenOrigin?: TokenOrigin;
}

/**
 * Turns what a user wrote into the API root. `https://host` and `https://host/` gain the
 * self-managed `/api/v3` prefix; anything with a path is taken as the full API root (a reverse
 * proxy prefix, or the hosted form's dedicated API host with its own path).
 */
export function normaliseBaseUrl(raw: string, source = "hosting:baseUrl"): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw configurationError(
      `${source} must be an absolute http(s) URL such as https://hosting.example.com; got "${text}"`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw configurationError(`${source} must use http or https; got "${url.protocol.replace(/:$/, "")}"`);
  }
  if (url.username || url.password) {
    throw configurationError(
      `${source} must not carry credentials; set hosting:token (or HOSTING_TOKEN) instead`,
    );
  }
  if (url.search || url.hash) {
    throw configurationError(`${source} must not have a query or fragment; got "${text}"`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path === "" ? SELF_MANAGED_API_PREFIX : path}`;
}

/** A source of settings: stack config first, then the environment. */
export interface SettingsSource {
  get(key: string): string | undefined;
  /**
   * How errors name where a key's value was set, when not by the key itself (a function's
   * `token` option, hosting-import's `HOSTING_TOKEN`).
   */
  describe?(key: string): string | undefined;
}

/**
 * Resolves the client settings from stack config (`hosting:baseUrl`, `hosting:token`,
 * `hosting:apiVersion`) with the environment (`HOSTING_BASE_URL`, `HOSTING_TOKEN`,
 * `HOSTING_API_VERSION`) as fallback. Errors name both places so the user knows where to set them.
 */
export function resolveSettings(
  config: SettingsSource,
  env: NodeJS.ProcessEnv = process.env,
): ClientSettings {
  const pick = (key: string, envKey: string) => {
    // Blank values count as unset, so a stray "   " never hides a real value or sends an empty token.
    const fromConfig = config.get(`hosting:${key}`)?.trim();
    if (fromConfig)
      return { value: fromConfig, source: config.describe?.(`hosting:${key}`) ?? `hosting:${key}` };
    const fromEnv = env[envKey]?.trim();
    if (fromEnv) return { value: fromEnv, source: envKey };
    return undefined;
  };
  const base = pick("baseUrl", "HOSTING_BASE_URL");
  if (!base) {
    throw configurationError(
      "No API address: set the stack config hosting:baseUrl or the environment variable HOSTING_BASE_URL",
    );
  }
  const token = pick("token", "HOSTING_TOKEN");
  if (!token) {
    throw configurationError(
      "No token: set the secret stack config hosting:token (pulumi config set --secret hosting:token ...) or HOSTING_TOKEN",
    );
  }
  const version = pick("apiVersion", "HOSTING_API_VERSION");
  if (version && !/^\d{4}-\d{2}-\d{2}$/.test(version.value)) {
    throw configurationError(
      `${version.source} must be a date such as ${API_VERSION_DEFAULT}; got "${version.value}"`,
    );
  }
  return {
    apiRoot: normaliseBaseUrl(base.value, base.source),
    token: token.value,
    apiVersion: version?.value,
    tokenOrigin: { source: token.source },
  };
}
