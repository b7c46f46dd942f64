/**
 * What `provider/plugin/package.ts` is inside the plugin executable: the version and the schema of
 * the release, built into the executable (scripts/sea/bundle.ts puts this module in that one's
 * place and defines the two constants), since the executable has no package folder to read them
 * from. The same exports, checked against the module it replaces, so the server's calls cannot
 * drift from it.
 */
import { dirname } from "node:path";
import type * as Replaced from "../../provider/plugin/package";

declare const PULUMI_HOSTING_RELEASE_VERSION: string;
declare const PULUMI_HOSTING_RELEASE_SCHEMA: string;

/** The folder of the executable: the plugin's folder in the plugin cache. */
export function packageRoot(): string {
  return dirname(process.execPath);
}

export function packageVersion(): string {
  return PULUMI_HOSTING_RELEASE_VERSION;
}

export function packageSchema(): string {
  return PULUMI_HOSTING_RELEASE_SCHEMA;
}

/** Every export of the replaced module, none missing and none more (a type check only). */
export const SAME_EXPORTS = { packageRoot, packageVersion, packageSchema } satisfies typeof Replaced;
