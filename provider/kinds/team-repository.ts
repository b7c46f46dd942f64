/** The TeamRepository provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { teamRepositoryProvider } from "../resources/teams";

export = teamRepositoryProvider;
