/**
 * Every resource kind's provider, once. The runtime registry and the tests that check each kind has
 * its `kinds/<kind>` module are derived from this list.
 */
import type { AnyHostingProvider } from "./internal/lifecycle";
import { budgetProvider } from "./resources/budgets";
import { repositoryCollaboratorProvider, repositoryCollaboratorsProvider } from "./resources/collaborators";
import { orgPropertyValueProvider, repositoryPropertyValueProvider } from "./resources/custom-properties";
import { deploymentProtectionRuleProvider } from "./resources/environments";
import { orgMembershipProvider } from "./resources/memberships";
import { issueFieldProvider, issueTypeProvider, orgBlockProvider } from "./resources/org-config";
import { organizationProvider } from "./resources/organizations";
import { privateRegistryProvider } from "./resources/private-registries";
import {
  enterpriseRunnerGroupProvider,
  orgRunnerGroupProvider,
  runnerGroupRunnersProvider,
} from "./resources/runner-groups";
import {
  teamMembershipProvider,
  teamMembersProvider,
  teamProvider,
  teamRepositoryProvider,
} from "./resources/teams";
import { userGpgKeyProvider, userSshKeyProvider, userSshSigningKeyProvider } from "./resources/user-keys";
import { globalWebhookProvider, repositoryWebhookProvider } from "./resources/webhooks";

/** In the order `hosting-import` writes them within a module, and the reference lists them. */
export const PROVIDERS: readonly AnyHostingProvider[] = [
  orgMembershipProvider,
  orgRunnerGroupProvider,
  runnerGroupRunnersProvider,
  privateRegistryProvider,
  orgPropertyValueProvider,
  issueTypeProvider,
  issueFieldProvider,
  orgBlockProvider,
  repositoryWebhookProvider,
  repositoryPropertyValueProvider,
  deploymentProtectionRuleProvider,
  enterpriseRunnerGroupProvider,
  budgetProvider,
  globalWebhookProvider,
  userGpgKeyProvider,
  userSshKeyProvider,
  userSshSigningKeyProvider,
  organizationProvider,
  teamProvider,
  teamMembershipProvider,
  teamMembersProvider,
  teamRepositoryProvider,
  repositoryCollaboratorProvider,
  repositoryCollaboratorsProvider,
];
