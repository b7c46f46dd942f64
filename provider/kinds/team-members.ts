/** The TeamMembers provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { teamMembersProvider } from "../resources/teams";

export = teamMembersProvider;
