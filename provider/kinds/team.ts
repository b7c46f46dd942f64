/** The Team provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { teamProvider } from "../resources/teams";

export = teamProvider;
