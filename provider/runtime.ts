/**
 * `pulumi-hosting/runtime`: what the serialised shim loads by name inside the provider process (the
 * shim of programs outside `node_modules`, and of every stack written by 0.1.0). It maps a resource
 * kind to its provider.
 */
import type { SettingsSource } from "./client/config";
import { configure as setSettings } from "./internal/context";
import type { AnyHostingProvider } from "./internal/lifecycle";
import { PROVIDERS } from "./providers";

const byKind = new Map(PROVIDERS.map((p) => [p.kind, p]));

export function configure(config: SettingsSource): void {
  setSettings(config);
}

export function provider(kind: string): AnyHostingProvider {
  const found = byKind.get(kind);
  if (!found) {
    throw new Error(
      `pulumi-hosting has no resource ${kind}: the state was written by a newer version; install it (npm install pulumi-hosting@latest)`,
    );
  }
  return found;
}
