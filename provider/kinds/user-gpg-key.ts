/** The UserGpgKey provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { userGpgKeyProvider } from "../resources/user-keys";

export = userGpgKeyProvider;
