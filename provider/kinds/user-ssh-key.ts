/** The UserSshKey provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { userSshKeyProvider } from "../resources/user-keys";

export = userSshKeyProvider;
