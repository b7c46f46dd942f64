/** The OrgMembership provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgMembershipProvider } from "../resources/memberships";

export = orgMembershipProvider;
