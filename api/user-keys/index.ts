import { z } from "zod";
import { route, STATUS_ONLY } from "../route";

const apiGpgSubkeySchema = z
  .object({
    id: z.number(),
    key_id: z.string(),
    can_sign: z.boolean(),
    can_encrypt_comms: z.boolean(),
    can_encrypt_storage: z.boolean(),
    can_certify: z.boolean(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked: z.boolean().optional(),
  })
  .loose();

export const apiGpgKeySchema = z
  .object({
    id: z.number(),
    name: z.string().nullable().optional(),
    primary_key_id: z.number().nullable().optional(),
    key_id: z.string(),
    public_key: z.string(),
    emails: z.array(z.object({ email: z.string(), verified: z.boolean() }).loose()),
    subkeys: z.array(apiGpgSubkeySchema),
    can_sign: z.boolean(),
    can_encrypt_comms: z.boolean(),
    can_encrypt_storage: z.boolean(),
    can_certify: z.boolean(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked: z.boolean(),
    raw_key: z.string().nullable().optional(),
  })
  .loose();
export type ApiGpgKey = z.infer<typeof apiGpgKeySchema>;

/**
 * An SSH authentication key (`/user/keys`) or signing key (`/user/ssh_signing_keys`) of the
 * signed-in user; `verified`, `read_only` and `last_used` come with authentication keys only.
 */
export const apiSshKeySchema = z
  .object({
    id: z.number(),
    key: z.string(),
    title: z.string().nullable().optional(),
    created_at: z.string().nullable().optional(),
    verified: z.boolean().optional(),
    read_only: z.boolean().optional(),
    last_used: z.string().nullable().optional(),
  })
  .loose();
export type ApiSshKey = z.infer<typeof apiSshKeySchema>;

export const userKeysRoutes = {
  gpgKeys: {
    list: route("GET /user/gpg_keys", { list: apiGpgKeySchema }),
    create: route("POST /user/gpg_keys", { body: apiGpgKeySchema }),
    get: route("GET /user/gpg_keys/{gpg_key_id}", { body: apiGpgKeySchema }),
    delete: route("DELETE /user/gpg_keys/{gpg_key_id}", STATUS_ONLY),
    listForUser: route("GET /users/{username}/gpg_keys", { list: apiGpgKeySchema }),
  },
  sshKeys: {
    list: route("GET /user/keys", { list: apiSshKeySchema }),
    create: route("POST /user/keys", { body: apiSshKeySchema }),
    get: route("GET /user/keys/{key_id}", { body: apiSshKeySchema }),
    delete: route("DELETE /user/keys/{key_id}", STATUS_ONLY),
    listForUser: route("GET /users/{username}/keys"),
  },
  sshSigningKeys: {
    list: route("GET /user/ssh_signing_keys", { list: apiSshKeySchema }),
    create: route("POST /user/ssh_signing_keys", { body: apiSshKeySchema }),
    get: route("GET /user/ssh_signing_keys/{ssh_signing_key_id}", { body: apiSshKeySchema }),
    delete: route("DELETE /user/ssh_signing_keys/{ssh_signing_key_id}", STATUS_ONLY),
  },
} as const;
