/**
 * The signed-in user's keys: GPG keys (spec, Endpoints, User GPG keys; Concepts, GPG key), SSH
 * authentication keys and SSH signing keys (bodies from the platform's published description),
 * their validation, uniqueness, public lists, scopes and conditional requests. Keys are made fresh
 * by `openpgp` and `node:crypto`, never pasted.
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import type { Fixture } from "../../../../emulator/index";
import {
  type ApiResponse,
  brainpoolGpgKey,
  call,
  expectErrorBody,
  expectValidationFailed,
  gpgKeyWithForgedSignatures,
  gpgPublicKey,
  hostileSshKeys,
  loadOpenpgp,
  memoryChanges,
  memoryOf,
  parseLink,
  rsaPublicNumbers,
  securityKeyLine,
  sshPublicKey,
  sshWire,
  stateOf,
  TOKENS,
  useSandbox,
  withPaddingBits,
} from "../../helpers";

const sandbox = useSandbox();
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const post = (path: string, body: unknown, token: string = TOKENS.siteAdmin) =>
  call(sandbox.emulator, "POST", path, { body, token });
const get = (path: string, options: { token?: string | null; headers?: Record<string, string> } = {}) =>
  call(sandbox.emulator, "GET", path, options);

async function addGpgKey(armored: string, name?: string): Promise<ApiResponse> {
  const response = await post("/user/gpg_keys", { armored_public_key: armored, ...(name ? { name } : {}) });
  expect(response.status, response.text).toBe(201);
  return response;
}

/** A 422 that names `field` and leaves the state as it was. */
async function expectRefused(
  path: string,
  body: unknown,
  field: string,
  code: string,
  resource: string,
): Promise<ApiResponse> {
  const before = await stateOf(sandbox.emulator);
  const response = await post(path, body);
  expectValidationFailed(response, field, code, resource);
  expect(await stateOf(sandbox.emulator)).toEqual(before);
  return response;
}

describe("POST /user/gpg_keys", () => {
  it("reads the key with openpgp and answers 201 with the GPG key object", async () => {
    const armored = await gpgPublicKey(["admin@acme.example"]);
    const { body: key } = await addGpgKey(armored, "laptop");
    const parsed = await (await loadOpenpgp()).readKey({ armoredKey: armored });
    expect(Object.keys(key).sort()).toEqual(
      [
        "id",
        "name",
        "primary_key_id",
        "key_id",
        "public_key",
        "emails",
        "subkeys",
        "can_sign",
        "can_encrypt_comms",
        "can_encrypt_storage",
        "can_certify",
        "created_at",
        "expires_at",
        "revoked",
        "raw_key",
      ].sort(),
    );
    expect(Number.isInteger(key.id)).toBe(true);
    expect(key).toMatchObject({
      name: "laptop",
      primary_key_id: null,
      key_id: parsed.getKeyID().toHex().toUpperCase(),
      emails: [{ email: "admin@acme.example", verified: true }],
      // An ECC key from openpgp: the primary signs and certifies, its subkey encrypts.
      can_sign: true,
      can_encrypt_comms: false,
      can_encrypt_storage: false,
      can_certify: true,
      created_at: parsed
        .getCreationTime()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z"),
      expires_at: null,
      revoked: false,
      raw_key: armored,
    });
    expect(key.key_id).toMatch(/^[0-9A-F]{16}$/);
    // The key packet alone (new-format header, tag 6), not the armored key ring.
    const packet = Buffer.from(key.public_key, "base64");
    expect(packet[0]).toBe(0xc0 | 6);
    expect(Buffer.from(parsed.keyPacket.write()).equals(packet.subarray(2))).toBe(true);
    expect(key.subkeys).toHaveLength(1);
    const [subkey] = key.subkeys;
    expect(subkey).toEqual({
      id: expect.any(Number),
      primary_key_id: key.id,
      key_id: parsed.subkeys[0]?.getKeyID().toHex().toUpperCase(),
      public_key: expect.any(String),
      emails: [],
      can_sign: false,
      can_encrypt_comms: true,
      can_encrypt_storage: true,
      can_certify: false,
      created_at: expect.stringMatching(ISO_SECONDS),
      expires_at: null,
      revoked: false,
    });
    expect(subkey.id).not.toBe(key.id);
    expect(Buffer.from(subkey.public_key, "base64")[0]).toBe(0xc0 | 14);
  });

  it("marks an email verified only when it is one of the user's addresses; name defaults to null", async () => {
    const { body } = await addGpgKey(await gpgPublicKey(["ADMIN@acme.example", "someone@elsewhere.example"]));
    expect(body.name).toBeNull();
    expect(body.emails).toEqual([
      { email: "ADMIN@acme.example", verified: true },
      { email: "someone@elsewhere.example", verified: false },
    ]);
  });

  it("gives the expiry of the key and of its subkeys, and each subkey's flags", async () => {
    const { generateKey } = await loadOpenpgp();
    const { publicKey } = await generateKey({
      type: "ecc",
      curve: "curve25519Legacy",
      userIDs: [{ email: "admin@acme.example" }],
      keyExpirationTime: 86_400,
      subkeys: [{}, { sign: true }],
      format: "armored",
    });
    const { body } = await addGpgKey(publicKey);
    const expires = new Date(Date.parse(body.created_at) + 86_400_000)
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    expect(body.expires_at).toBe(expires);
    expect(body.subkeys).toHaveLength(2);
    expect(body.subkeys.map((s: { expires_at: string }) => s.expires_at)).toEqual([expires, expires]);
    expect(body.subkeys[0]).toMatchObject({
      can_sign: false,
      can_encrypt_comms: true,
      can_encrypt_storage: true,
    });
    expect(body.subkeys[1]).toMatchObject({
      can_sign: true,
      can_encrypt_comms: false,
      can_encrypt_storage: false,
    });
  });

  it("reads an RSA key with its encryption subkey", async () => {
    const { generateKey } = await loadOpenpgp();
    const { publicKey } = await generateKey({
      type: "rsa",
      rsaBits: 2048,
      userIDs: [{ email: "admin@acme.example" }],
      format: "armored",
    });
    const { body } = await addGpgKey(publicKey);
    expect(body).toMatchObject({ can_sign: true, can_certify: true, can_encrypt_comms: false });
    expect(body.subkeys[0]).toMatchObject({ can_encrypt_comms: true, can_sign: false });
  });

  it("shows a revoked key, and a revoked subkey, as revoked", async () => {
    const openpgp = await loadOpenpgp();
    const pair = await openpgp.generateKey({
      type: "ecc",
      curve: "curve25519Legacy",
      userIDs: [{ email: "admin@acme.example" }],
      format: "armored",
    });
    const privateKey = await openpgp.readPrivateKey({ armoredKey: pair.privateKey });
    const revoked = await openpgp.revokeKey({ key: privateKey, format: "armored" });
    const { body } = await addGpgKey(revoked.publicKey);
    expect(body.revoked).toBe(true);
    expect(body.subkeys[0].revoked).toBe(false);

    const other = await openpgp.readPrivateKey({
      armoredKey: (
        await openpgp.generateKey({
          type: "ecc",
          curve: "curve25519Legacy",
          userIDs: [{ email: "admin@acme.example" }],
          format: "armored",
        })
      ).privateKey,
    });
    const [subkey] = other.subkeys;
    const primaryPacket = other.keyPacket;
    if (!subkey || !(primaryPacket instanceof openpgp.SecretKeyPacket)) throw new Error("no private key");
    other.subkeys[0] = await subkey.revoke(primaryPacket);
    const { body: withRevokedSubkey } = await addGpgKey(other.toPublic().armor());
    expect(withRevokedSubkey.revoked).toBe(false);
    expect(withRevokedSubkey.subkeys[0].revoked).toBe(true);
  });

  it("refuses what is not an ASCII-armored public key with a 422 naming armored_public_key", async () => {
    const openpgp = await loadOpenpgp();
    const pair = await openpgp.generateKey({
      type: "ecc",
      curve: "curve25519Legacy",
      userIDs: [{ email: "admin@acme.example" }],
      format: "armored",
    });
    const lines = pair.publicKey.trimEnd().split("\n");
    const message = await openpgp.encrypt({
      message: await openpgp.createMessage({ text: "hello" }),
      encryptionKeys: await openpgp.readKey({ armoredKey: pair.publicKey }),
    });
    const bad = [
      "not a key",
      pair.privateKey,
      // Truncated: the armor cut half-way (with and without its end line).
      pair.publicKey.slice(0, pair.publicKey.length / 2),
      [...lines.slice(0, 4), lines.at(-1)].join("\n"),
      message,
      "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n=AAAA\n-----END PGP PUBLIC KEY BLOCK-----\n",
    ];
    for (const armored of bad) {
      const response = await expectRefused(
        "/user/gpg_keys",
        { armored_public_key: armored },
        "armored_public_key",
        "invalid",
        "GpgKey",
      );
      expect(response.body.errors[0].message).toMatch(
        /^armored_public_key is not an ASCII-armored PGP public key/,
      );
    }
    const privateResponse = await post("/user/gpg_keys", { armored_public_key: pair.privateKey });
    expect(privateResponse.body.errors[0].message).toMatch(/private key/);
    await expectRefused(
      "/user/gpg_keys",
      { armored_public_key: 42 },
      "armored_public_key",
      "invalid",
      "GpgKey",
    );
    await expectRefused("/user/gpg_keys", { name: "x" }, "armored_public_key", "missing_field", "GpgKey");
    await expectRefused(
      "/user/gpg_keys",
      { name: 7, armored_public_key: pair.publicKey },
      "name",
      "invalid",
      "GpgKey",
    );
  });

  it.each([
    [100, 100],
    [600, 600],
    // Near the 1 MiB body limit.
    [1_850, 1_850],
  ])(
    "refuses a key with %i forged certifications and %i forged revocations at once (422), holding no one",
    async (certifications, revocations) => {
      const armored = await gpgKeyWithForgedSignatures(certifications, revocations);
      const started = performance.now();
      let meanwhile = Number.POSITIVE_INFINITY;
      const [response] = await Promise.all([
        post("/user/gpg_keys", { armored_public_key: armored }),
        (async () => {
          const asked = performance.now();
          expect((await get("/user")).status).toBe(200);
          meanwhile = performance.now() - asked;
        })(),
      ]);
      const took = performance.now() - started;
      expectValidationFailed(response, "armored_public_key", "invalid", "GpgKey");
      // The forged ones, the genuine certification and the encryption subkey's binding.
      const total = certifications + revocations + 2;
      expect(response.body.errors[0].message).toMatch(
        new RegExp(`^armored_public_key holds ${total} signatures of its own .*at most 100 are read`),
      );
      expect(took, `${armored.length} characters`).toBeLessThan(1_000);
      expect(meanwhile).toBeLessThan(1_000);
      expect((await get("/user/gpg_keys")).body).toEqual([]);
    },
    30_000,
  );

  it("checks each of a key's signatures once: forged ones up to the limit cost little and certify nothing", async () => {
    // A genuine certification, 48 forged ones, 50 forged revocations and the subkey's binding: 100
    // signatures, the limit.
    const armored = await gpgKeyWithForgedSignatures(48, 50);
    const started = performance.now();
    const { body } = await addGpgKey(armored);
    expect(performance.now() - started).toBeLessThan(1_000);
    // The forged revocations revoke nothing: the genuine certification still names admin.
    expect(body.emails).toEqual([{ email: "admin@acme.example", verified: true }]);
    expect(body.can_certify).toBe(true);
  });

  it.each(["brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1"] as const)(
    "reads a %s key, its certified address included",
    async (curve) => {
      const { body } = await addGpgKey(await brainpoolGpgKey(curve));
      expect(body.emails).toEqual([{ email: "admin@acme.example", verified: true }]);
      expect(body).toMatchObject({ can_sign: true, can_certify: true, revoked: false });
    },
  );

  it("refuses the same key twice (422 already_exists naming key_id)", async () => {
    const armored = await gpgPublicKey();
    const { body } = await addGpgKey(armored);
    const response = await expectRefused(
      "/user/gpg_keys",
      { armored_public_key: armored },
      "key_id",
      "already_exists",
      "GpgKey",
    );
    expect(response.body.errors[0].message).toBe(`key_id ${body.key_id} already exists`);
  });
});

describe("GET and DELETE /user/gpg_keys", () => {
  it("lists, gets and deletes the user's keys", async () => {
    const first = (await addGpgKey(await gpgPublicKey(), "one")).body;
    const second = (await addGpgKey(await gpgPublicKey(), "two")).body;
    const list = await get("/user/gpg_keys");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([first, second]);
    expect((await get(`/user/gpg_keys/${second.id}`)).body).toEqual(second);
    // Through the fine-grained token of the same user.
    expect((await get("/user/gpg_keys", { token: TOKENS.fineGrained })).body).toEqual([first, second]);

    const deleted = await call(sandbox.emulator, "DELETE", `/user/gpg_keys/${first.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await get(`/user/gpg_keys/${first.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `/user/gpg_keys/${first.id}`)).status).toBe(404);
    expect((await get("/user/gpg_keys")).body).toEqual([second]);
  });

  it("answers 404 for an id that names no key, a subkey's id, or no integer", async () => {
    const key = (await addGpgKey(await gpgPublicKey())).body;
    for (const id of ["999999", String(key.subkeys[0].id), "abc", "01"]) {
      const response = await get(`/user/gpg_keys/${id}`);
      expect(response.status, id).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
  });

  it("pages the list with Link", async () => {
    for (let i = 0; i < 3; i++) await addGpgKey(await gpgPublicKey());
    const page = await get("/user/gpg_keys?per_page=2");
    expect(page.body).toHaveLength(2);
    const links = parseLink(page.headers.get("link"));
    expect(new URL(links.next ?? "").searchParams.get("page")).toBe("2");
    expect((await get(links.next ?? "")).body).toHaveLength(1);
  });
});

describe("GET /users/{username}/gpg_keys", () => {
  it("is public: anyone lists a user's keys, an unknown user is a 404", async () => {
    const key = (await addGpgKey(await gpgPublicKey())).body;
    for (const token of [null, TOKENS.install, TOKENS.noScopes]) {
      const response = await get("/users/ADMIN/gpg_keys", { token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([key]);
    }
    expect((await get("/users/octocat/gpg_keys", { token: null })).body).toEqual([]);
    expect((await get("/users/nobody/gpg_keys", { token: null })).status).toBe(404);
    expect((await get("/users/admin/gpg_keys", { token: "svcp_unknown" })).status).toBe(401);
  });
});

describe("conditional requests", () => {
  it("answers 304 without a body when If-None-Match names the list's ETag, 200 once it changed", async () => {
    await addGpgKey(await gpgPublicKey());
    const first = await get("/user/gpg_keys");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    expect(first.headers.get("cache-control")).toBe("private, max-age=60, s-maxage=60");
    expect(first.headers.get("vary")).toBe("Accept, Authorization, Cookie");
    expect(first.headers.get("last-modified")).toBeNull();

    const again = await get("/user/gpg_keys", { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    // Weak comparison: the tag without W/ matches; a list of tags matches when one does.
    const strong = (etag ?? "").replace(/^W\//, "");
    expect((await get("/user/gpg_keys", { headers: { "if-none-match": strong } })).status).toBe(304);
    expect((await get("/user/gpg_keys", { headers: { "if-none-match": `"x", ${etag}` } })).status).toBe(304);
    expect((await get("/user/gpg_keys", { headers: { "if-none-match": '"other"' } })).status).toBe(200);

    await addGpgKey(await gpgPublicKey());
    const changed = await get("/user/gpg_keys", { headers: { "if-none-match": etag ?? "" } });
    expect(changed.status).toBe(200);
    expect(changed.body).toHaveLength(2);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("gives one key a Last-Modified and answers If-Modified-Since; If-None-Match decides when both come", async () => {
    const key = (await addGpgKey(await gpgPublicKey())).body;
    const path = `/user/gpg_keys/${key.id}`;
    const first = await get(path);
    const lastModified = first.headers.get("last-modified") ?? "";
    expect(lastModified).toBe(new Date(key.created_at).toUTCString());
    expect((await get(path, { headers: { "if-modified-since": lastModified } })).status).toBe(304);
    const earlier = new Date(Date.parse(key.created_at) - 1000).toUTCString();
    expect((await get(path, { headers: { "if-modified-since": earlier } })).status).toBe(200);
    const both = await get(path, {
      headers: { "if-modified-since": lastModified, "if-none-match": '"other"' },
    });
    expect(both.status).toBe(200);
    expect(both.body).toEqual(key);
  });

  it("serves 304 on every GET of the keys, the public lists included, and still checks auth first", async () => {
    const ssh = (await post("/user/keys", { title: "t", key: sshPublicKey() })).body;
    const signing = (await post("/user/ssh_signing_keys", { title: "t", key: sshPublicKey() })).body;
    await addGpgKey(await gpgPublicKey());
    for (const [path, token] of [
      ["/user/keys", TOKENS.siteAdmin],
      [`/user/keys/${ssh.id}`, TOKENS.siteAdmin],
      ["/users/admin/keys", null],
      ["/user/ssh_signing_keys", TOKENS.siteAdmin],
      [`/user/ssh_signing_keys/${signing.id}`, TOKENS.siteAdmin],
      ["/users/admin/gpg_keys", null],
    ] as const) {
      const etag = (await get(path, { token })).headers.get("etag") ?? "";
      const response = await get(path, { token, headers: { "if-none-match": etag } });
      expect(response.status, path).toBe(304);
    }
    const etag = (await get("/user/keys")).headers.get("etag") ?? "";
    const refused = await get("/user/keys", { token: TOKENS.noScopes, headers: { "if-none-match": etag } });
    expect(refused.status).toBe(403);
  });
});

/** The type and base64 of a key line, its comment dropped. */
const typeAndData = (line: string) => line.split(" ").slice(0, 2).join(" ");

/** Rewrites the base64 part of a key line. */
function withData(line: string, change: (wire: Buffer) => Buffer): string {
  const [type, data] = line.split(" ");
  return `${type} ${change(Buffer.from(data ?? "", "base64")).toString("base64")}`;
}

describe("POST /user/keys", () => {
  it("answers 201 with the key object, the comment dropped and the title given", async () => {
    const line = sshPublicKey("ssh-ed25519", "me@laptop");
    const response = await post("/user/keys", { title: "Laptop", key: `  ${line}\n` });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      key: line.split(" ").slice(0, 2).join(" "),
      url: `${sandbox.emulator.url}/user/keys/${response.body.id}`,
      title: "Laptop",
      created_at: expect.stringMatching(ISO_SECONDS),
      verified: true,
      read_only: false,
      last_used: null,
    });
  });

  it("accepts every supported type; without a title the comment is the title", async () => {
    const lines = [
      sshPublicKey("ssh-ed25519", ""),
      sshPublicKey("ssh-rsa", "rsa key"),
      sshPublicKey("ecdsa-sha2-nistp256"),
      sshPublicKey("ecdsa-sha2-nistp384"),
      sshPublicKey("ecdsa-sha2-nistp521"),
      securityKeyLine("ed25519"),
      securityKeyLine("ecdsa"),
    ];
    const titles = [];
    for (const line of lines) {
      const response = await post("/user/keys", { key: line });
      expect(response.status, `${line}: ${response.text}`).toBe(201);
      titles.push(response.body.title);
    }
    expect(titles).toEqual(["", "rsa key", "test@sandbox", "test@sandbox", "test@sandbox", "", ""]);
    expect((await get("/user/keys")).body).toHaveLength(7);
  });

  it("refuses a key line that is not a public key of its declared type (422 naming key)", async () => {
    const ed = sshPublicKey();
    const [, edData] = ed.split(" ");
    const ec = sshPublicKey("ecdsa-sha2-nistp256");
    const bad = [
      "",
      "ssh-dss AAAAB3NzaC1kc3MAAACBAP",
      "ssh-ed25519",
      "ssh-ed25519 not*base64",
      `ssh-rsa ${edData}`, // the data says ssh-ed25519
      withData(ed, (w) => w.subarray(0, w.length - 5)), // truncated
      withData(ed, (w) => Buffer.concat([w, Buffer.from([0])])), // trailing bytes
      withData(ec, (w) => {
        const copy = Buffer.from(w);
        copy[copy.length - 1] = (copy.at(-1) ?? 0) ^ 1; // the point is off the curve
        return copy;
      }),
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAAQA=", // a one-byte key
    ];
    for (const key of bad) {
      const response = await expectRefused("/user/keys", { title: "x", key }, "key", "custom", "PublicKey");
      expect(response.body.errors[0].message, key).toMatch(/^key is invalid\./);
    }
    const mismatch = await post("/user/keys", { key: `ssh-rsa ${edData}` });
    expect(mismatch.body.errors[0].message).toMatch(/The key data is of type 'ssh-ed25519', not 'ssh-rsa'/);
    await expectRefused("/user/keys", { title: "x" }, "key", "missing_field", "PublicKey");
    await expectRefused("/user/keys", { key: 5 }, "key", "invalid", "PublicKey");
    await expectRefused("/user/keys", { title: 5, key: sshPublicKey() }, "title", "invalid", "PublicKey");
  });

  it.each(hostileSshKeys())(
    "refuses %s at once (422 naming key), as OpenSSH does",
    async (_, key, reason) => {
      for (const [path, resource] of [
        ["/user/keys", "PublicKey"],
        ["/user/ssh_signing_keys", "SshSigningKey"],
      ] as const) {
        const started = performance.now();
        const response = await expectRefused(path, { title: "x", key }, "key", "custom", resource);
        expect(performance.now() - started).toBeLessThan(1_000);
        const message = response.body.errors[0].message;
        expect(message).toMatch(/^key is invalid\. The key data is not a valid public key of its type: /);
        expect(message).toMatch(reason);
      }
    },
  );

  it("refuses an Ed25519 point off the curve or encoded with y at or above the field prime", async () => {
    const point = (y: bigint, sign = 0) => {
      const bytes = Buffer.from(y.toString(16).padStart(64, "0"), "hex").reverse();
      bytes[31] = (bytes[31] ?? 0) | (sign << 7);
      return sshWire.line("ssh-ed25519", sshWire.string(bytes));
    };
    const p = 2n ** 255n - 19n;
    for (const [key, reason] of [
      [point(p + 3n), /not canonically encoded/],
      [point(2n), /not on the curve/],
      // y = 1 has x = 0: the sign bit would name a second x that is not there.
      [point(1n, 1), /not canonically encoded/],
      [point(1n), /small order/],
      // A point of order 8 (libsodium's list of small-order encodings).
      [
        sshWire.line(
          "ssh-ed25519",
          sshWire.string(
            Buffer.from("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", "hex"),
          ),
        ),
        /small order/,
      ],
    ] as const) {
      const response = await expectRefused("/user/keys", { key }, "key", "custom", "PublicKey");
      expect(response.body.errors[0].message).toMatch(reason);
    }
  });

  it("refuses a key already in use, whatever its comment (422)", async () => {
    const line = sshPublicKey("ssh-ed25519", "one");
    expect((await post("/user/keys", { title: "a", key: line })).status).toBe(201);
    const again = `${line.split(" ").slice(0, 2).join(" ")} another-comment`;
    const response = await expectRefused(
      "/user/keys",
      { title: "b", key: again },
      "key",
      "custom",
      "PublicKey",
    );
    expect(response.body.errors[0].message).toBe("key is already in use");
    // The same key may still sign: authentication and signing keys are apart.
    expect((await post("/user/ssh_signing_keys", { title: "s", key: line })).status).toBe(201);
  });
});

describe("GET and DELETE /user/keys, GET /users/{username}/keys", () => {
  it("lists, gets and deletes; the public list shows id, key and created_at to anyone", async () => {
    const a = (await post("/user/keys", { title: "a", key: sshPublicKey() })).body;
    const b = (await post("/user/keys", { title: "b", key: sshPublicKey("ecdsa-sha2-nistp256") })).body;
    expect((await get("/user/keys")).body).toEqual([a, b]);
    expect((await get(`/user/keys/${b.id}`)).body).toEqual(b);
    const publicList = await get("/users/admin/keys", { token: null });
    expect(publicList.status).toBe(200);
    expect(publicList.body).toEqual(
      [a, b].map((k) => ({ id: k.id, key: k.key, created_at: k.created_at, last_used: null })),
    );
    expect((await get("/users/admin/keys", { token: TOKENS.install })).status).toBe(200);
    expect((await get("/users/nobody/keys", { token: null })).status).toBe(404);

    expect((await call(sandbox.emulator, "DELETE", `/user/keys/${a.id}`)).status).toBe(204);
    expect((await get(`/user/keys/${a.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `/user/keys/${a.id}`)).status).toBe(404);
    expect((await get("/user/keys")).body).toEqual([b]);
    // A deleted key is free again: title changes are a delete and a create.
    expect((await post("/user/keys", { title: "renamed", key: a.key })).status).toBe(201);
  });

  it("answers 404 for a signing key's or a GPG key's id", async () => {
    const signing = (await post("/user/ssh_signing_keys", { title: "s", key: sshPublicKey() })).body;
    expect((await get(`/user/keys/${signing.id}`)).status).toBe(404);
    expect((await get(`/user/ssh_signing_keys/${signing.id}`)).status).toBe(200);
  });
});

describe("/user/ssh_signing_keys", () => {
  it("creates, lists, gets and deletes signing keys ({id, key, title, created_at})", async () => {
    const line = sshPublicKey("ssh-ed25519", "signing");
    const created = await post("/user/ssh_signing_keys", { title: "Signing", key: line });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      key: line.split(" ").slice(0, 2).join(" "),
      title: "Signing",
      created_at: expect.stringMatching(ISO_SECONDS),
    });
    expect((await get("/user/ssh_signing_keys")).body).toEqual([created.body]);
    expect((await get(`/user/ssh_signing_keys/${created.body.id}`)).body).toEqual(created.body);
    const response = await expectRefused(
      "/user/ssh_signing_keys",
      { title: "again", key: line },
      "key",
      "custom",
      "SshSigningKey",
    );
    expect(response.body.errors[0].message).toBe("key is already in use");
    await expectRefused("/user/ssh_signing_keys", { key: "ssh-rsa AAAA" }, "key", "custom", "SshSigningKey");
    await expectRefused("/user/ssh_signing_keys", {}, "key", "missing_field", "SshSigningKey");
    expect((await call(sandbox.emulator, "DELETE", `/user/ssh_signing_keys/${created.body.id}`)).status).toBe(
      204,
    );
    expect((await get(`/user/ssh_signing_keys/${created.body.id}`)).status).toBe(404);
  });
});

/**
 * Scopes and other users, with tokens the default fixture lacks: olivia with every key scope, and
 * admin's tokens holding only the read or write level.
 */
function keysFixture(): Fixture {
  const fixture = defaultFixture();
  const classic = (user: string, scopes: string[]) => ({
    kind: "classic" as const,
    user,
    scopes,
    permissions: {},
  });
  fixture.tokens.svcp_keys_olivia = classic("olivia", [
    "admin:gpg_key",
    "admin:public_key",
    "admin:ssh_signing_key",
  ]);
  fixture.tokens.svcp_keys_read = classic("admin", [
    "read:gpg_key",
    "read:public_key",
    "read:ssh_signing_key",
  ]);
  fixture.tokens.svcp_keys_write = classic("admin", [
    "write:gpg_key",
    "write:public_key",
    "write:ssh_signing_key",
  ]);
  fixture.tokens.svc_pat_keys_read = {
    kind: "fine_grained",
    user: "admin",
    scopes: [],
    permissions: { gpg_keys: "read", git_ssh_keys: "read", ssh_signing_keys: "read" },
  };
  return fixture;
}

describe("other users and token levels", () => {
  const other = useSandbox({ fixture: keysFixture() });
  const at = (method: string, path: string, token: string, body?: unknown) =>
    call(other.emulator, method, path, { token, ...(body === undefined ? {} : { body }) });

  it("keeps each user's keys apart; an SSH authentication key is unique across users, a signing key per user", async () => {
    const line = sshPublicKey();
    const mine = await at("POST", "/user/keys", TOKENS.siteAdmin, { title: "admin", key: line });
    expect(mine.status).toBe(201);
    const theirs = await at("POST", "/user/keys", "svcp_keys_olivia", { title: "olivia", key: line });
    expectValidationFailed(theirs, "key", "custom", "PublicKey");
    expect(theirs.body.errors[0].message).toBe("key is already in use");

    expect((await at("POST", "/user/ssh_signing_keys", TOKENS.siteAdmin, { key: line })).status).toBe(201);
    expect((await at("POST", "/user/ssh_signing_keys", "svcp_keys_olivia", { key: line })).status).toBe(201);

    const gpg = await gpgPublicKey(["olivia@acme.example"]);
    const oliviaKey = await at("POST", "/user/gpg_keys", "svcp_keys_olivia", { armored_public_key: gpg });
    expect(oliviaKey.status).toBe(201);
    expect(oliviaKey.body.emails).toEqual([{ email: "olivia@acme.example", verified: true }]);
    // The same GPG key on admin's account: its email is not admin's.
    const adminCopy = await at("POST", "/user/gpg_keys", TOKENS.siteAdmin, { armored_public_key: gpg });
    expect(adminCopy.status).toBe(201);
    expect(adminCopy.body.emails).toEqual([{ email: "olivia@acme.example", verified: false }]);

    for (const path of [
      `/user/keys/${mine.body.id}`,
      `/user/gpg_keys/${adminCopy.body.id}`,
      `/user/ssh_signing_keys/${mine.body.id}`,
    ]) {
      expect((await at("GET", path, "svcp_keys_olivia")).status, path).toBe(404);
      expect((await at("DELETE", path, "svcp_keys_olivia")).status, path).toBe(404);
    }
    expect((await at("GET", "/user/keys", "svcp_keys_olivia")).body).toEqual([]);
    expect((await at("GET", "/users/olivia/gpg_keys", "svcp_keys_olivia")).body).toEqual([oliviaKey.body]);
  });

  it("knows a key by what it decodes to: other padding bits or leading zero bytes are the key in use", async () => {
    const { e, n } = rsaPublicNumbers();
    const rsa = sshWire.line("ssh-rsa", sshWire.mpint(e), sshWire.mpint(n));
    // The modulus with two more zero bytes in front: the same number.
    const padded = sshWire.line(
      "ssh-rsa",
      sshWire.mpint(e),
      sshWire.string(Buffer.concat([Buffer.alloc(3), n])),
    );
    const pairs = [
      ["sk-ssh-ed25519", securityKeyLine("ed25519")],
      ["ecdsa-sha2-nistp256", typeAndData(sshPublicKey("ecdsa-sha2-nistp256"))],
      ["ecdsa-sha2-nistp384", typeAndData(sshPublicKey("ecdsa-sha2-nistp384"))],
    ].map(([what, line = ""]) => [what, line, withPaddingBits(line)]);
    pairs.push(["ssh-rsa", rsa, padded]);
    for (const [what, canonical = "", other = ""] of pairs) {
      expect(other, what).not.toBe(canonical);
      // The other text is taken, and stored and answered as the canonical one.
      const mine = await at("POST", "/user/keys", TOKENS.siteAdmin, { key: other });
      expect(mine.status, `${what}: ${mine.text}`).toBe(201);
      expect(mine.body.key, what).toBe(canonical);
      for (const [token, key] of [
        [TOKENS.siteAdmin, canonical],
        ["svcp_keys_olivia", canonical],
        ["svcp_keys_olivia", other],
      ] as const) {
        const taken = await at("POST", "/user/keys", token, { key });
        expectValidationFailed(taken, "key", "custom", "PublicKey");
        expect(taken.body.errors[0].message).toBe("key is already in use");
      }
      // A signing key is unique per user, whatever its text.
      expect((await at("POST", "/user/ssh_signing_keys", TOKENS.siteAdmin, { key: canonical })).status).toBe(
        201,
      );
      const twice = await at("POST", "/user/ssh_signing_keys", TOKENS.siteAdmin, { key: other });
      expectValidationFailed(twice, "key", "custom", "SshSigningKey");
    }
  });

  it("needs read to list, write to add and admin to delete (classic); read or write (fine-grained)", async () => {
    const ids = {
      gpg: (
        await at("POST", "/user/gpg_keys", TOKENS.siteAdmin, { armored_public_key: await gpgPublicKey() })
      ).body.id,
      keys: (await at("POST", "/user/keys", TOKENS.siteAdmin, { key: sshPublicKey() })).body.id,
      ssh_signing_keys: (
        await at("POST", "/user/ssh_signing_keys", TOKENS.siteAdmin, { key: sshPublicKey() })
      ).body.id,
    };
    const families = [
      ["gpg_keys", ids.gpg, "gpg_key", async () => ({ armored_public_key: await gpgPublicKey() })],
      ["keys", ids.keys, "public_key", async () => ({ key: sshPublicKey() })],
      ["ssh_signing_keys", ids.ssh_signing_keys, "ssh_signing_key", async () => ({ key: sshPublicKey() })],
    ] as const;
    for (const [path, id, scope, body] of families) {
      const base = `/user/${path}`;
      for (const token of ["svcp_keys_read", "svcp_keys_write", "svc_pat_keys_read"]) {
        expect((await at("GET", base, token)).status, `${token} ${base}`).toBe(200);
        expect((await at("GET", `${base}/${id}`, token)).status).toBe(200);
      }
      const readOnly = await at("POST", base, "svcp_keys_read", await body());
      expect(readOnly.status).toBe(403);
      expectErrorBody(readOnly.body, `Your token has not been granted the required scopes: write:${scope}`);
      expect(readOnly.headers.get("x-accepted-oauth-scopes")).toBe(`write:${scope}`);
      expect((await at("POST", base, "svc_pat_keys_read", await body())).status).toBe(403);
      expect((await at("POST", base, "svcp_keys_write", await body())).status).toBe(201);
      const noAdmin = await at("DELETE", `${base}/${id}`, "svcp_keys_write");
      expect(noAdmin.status).toBe(403);
      expectErrorBody(noAdmin.body, `Your token has not been granted the required scopes: admin:${scope}`);
      expect((await at("DELETE", `${base}/${id}`, "svc_pat_keys_read")).status).toBe(403);
      expect((await at("DELETE", `${base}/${id}`, TOKENS.fineGrained)).status).toBe(204);
    }
  });

  it("refuses app installation tokens on /user/... routes", async () => {
    for (const path of ["/user/gpg_keys", "/user/keys", "/user/ssh_signing_keys"]) {
      const response = await at("GET", path, TOKENS.install);
      expect(response.status).toBe(403);
      expectErrorBody(response.body, "Resource not accessible by integration");
    }
  });
});

describe("hostile bodies", () => {
  it("answers 4xx, never 5xx, whatever the type of each field, and leaves the server's memory as it was", async () => {
    const odd: unknown[] = [
      null,
      0,
      -1,
      1.5,
      "",
      " ",
      "\ud800",
      "x".repeat(10_000),
      [],
      ["a"],
      {},
      { a: 1 },
      true,
    ];
    // The requests of the adversarial run: keys OpenSSH refuses, and a GPG key of forged signatures.
    const keys: Record<string, unknown[]> = {
      key: hostileSshKeys().map(([, line]) => line),
      armored_public_key: [await gpgKeyWithForgedSignatures(300, 300)],
    };
    const failures: string[] = [];
    for (const path of ["/user/gpg_keys", "/user/keys", "/user/ssh_signing_keys"]) {
      for (const field of ["armored_public_key", "name", "key", "title"]) {
        for (const value of [...odd, ...(keys[field] ?? [])]) {
          const before = memoryOf(sandbox.emulator);
          const response = await post(path, { [field]: value });
          const what = `${path} {${field}: ${JSON.stringify(value).slice(0, 20)}}`;
          if (response.status >= 500 || response.status < 400) failures.push(`${what} -> ${response.status}`);
          const changed = memoryChanges(before, sandbox.emulator);
          if (changed.length > 0) failures.push(`${what} left ${changed.join(", ")} changed`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect((await get("/user/gpg_keys")).body).toEqual([]);
  });
});
