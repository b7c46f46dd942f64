/** The TeamMembership provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { teamMembershipProvider } from "../resources/teams";

export = teamMembershipProvider;
