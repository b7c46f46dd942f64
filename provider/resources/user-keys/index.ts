/** The signed-in user's keys: UserGpgKey, UserSshKey and UserSshSigningKey. */
export * from "./user-gpg-key";
export * from "./user-ssh-keys";
