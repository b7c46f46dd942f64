/** The UserSshSigningKey provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { userSshSigningKeyProvider } from "../resources/user-keys";

export = userSshSigningKeyProvider;
