/**
 * The module the serialised provider shim loads by name (`pulumi-hosting/runtime`) inside the
 * provider process. It maps a resource kind to its provider implementation.
 */
import type { SettingsSource } from "./client/config";
import { configure as setSettings } from "./internal/context";
import type { AnyHostingProvider } from "./internal/provider";
import { orgMembershipProvider } from "./resources/memberships";
import {
  enterpriseRunnerGroupProvider,
  orgRunnerGroupProvider,
  runnerGroupRunnersProvider,
} from "./resources/runner-groups";
import { globalWebhookProvider, repositoryWebhookProvider } from "./resources/webhooks";

const providers: Record<string, AnyHostingProvider> = {
  RepositoryWebhook: repositoryWebhookProvider,
  GlobalWebhook: globalWebhookProvider,
  OrgMembership: orgMembershipProvider,
  EnterpriseRunnerGroup: enterpriseRunnerGroupProvider,
  OrgRunnerGroup: orgRunnerGroupProvider,
  RunnerGroupRunners: runnerGroupRunnersProvider,
};

export function configure(config: SettingsSource): void {
  setSettings(config);
}

export function provider(kind: string): AnyHostingProvider {
  const found = providers[kind];
  if (!found) {
    throw new Error(
      `pulumi-hosting has no resource ${kind}: the state was written by a newer version; install it (npm install pulumi-hosting@latest)`,
    );
  }
  return found;
}
