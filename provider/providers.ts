/**
 * Every resource kind's provider, in the order users read them: by where `hosting-import` finds
 * them (organisation, repository, enterprise, site administration, the signed-in user), then by
 * family. The list itself is generated (`registry.ts`) from the families' declarations.
 */
import type { AnyHostingProvider } from "./internal/lifecycle";
import { KIND_PROVIDERS } from "./registry";

const SCOPES = ["org", "repository", "enterprise", "siteAdmin", "user"];
const rank = (p: AnyHostingProvider) => {
  const scope = p.declared.discovery?.scope;
  return scope === undefined ? SCOPES.length : SCOPES.indexOf(scope);
};

/** In the order `hosting-import` writes them within a module, and the reference lists them. */
export const PROVIDERS: readonly AnyHostingProvider[] = [...KIND_PROVIDERS].sort((a, b) => rank(a) - rank(b));
