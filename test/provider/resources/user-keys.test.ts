/**
 * Lifecycle of UserGpgKey, UserSshKey and UserSshSigningKey: provider methods called directly
 * against the sandbox server, as the engine would call them.
 */
import { describe, expect, it, vi } from "vitest";
import type { ApiSshKey } from "../../../api";
import { ROUTES } from "../../../api";
import type { RunningEmulator } from "../../../emulator/index";
import { HostingApiError } from "../../../provider/client/errors";
import type { HostingClient } from "../../../provider/client/http";
import type { AnyHostingProvider } from "../../../provider/internal/lifecycle";
import {
  userGpgKeyProvider as gpgProvider,
  userSshSigningKeyProvider as signingProvider,
  userSshKeyProvider as sshProvider,
  type UserGpgKeyInputs,
  type UserSshKeyInputs,
} from "../../../provider/resources/user-keys";
import { createOrAdoptKey, type KeyPlace } from "../../../provider/resources/user-keys/shared";
import {
  gpgKeyWithForgedSignatures,
  gpgPublicKey,
  hostileSshKeys,
  securityKeyLine,
  sshPublicKey,
  withPaddingBits,
} from "../../emulator/helpers";
import { api, control, requestCounts, useSandbox } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

async function checked<I>(provider: AnyHostingProvider, news: Record<string, unknown>): Promise<I> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs) as I;
}

const state = () => emulator.store.state;
const typeAndData = (line: string) => line.split(" ").slice(0, 2).join(" ");

/** A stderr spy that collects the provider's notices. */
async function noticesOf(run: () => Promise<unknown>): Promise<string[]> {
  const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    await run();
    return told.mock.calls.map((c) => String(c[0]));
  } finally {
    told.mockRestore();
  }
}

describe.each([
  ["UserSshKey", sshProvider, "/user/keys", "sshKeys"],
  ["UserSshSigningKey", signingProvider, "/user/ssh_signing_keys", "sshSigningKeys"],
] as const)("%s", (kind, provider, path, collection) => {
  const stored = () => state()[collection];

  it.each([
    ["ssh-dss AAAAB3NzaC1kc3M= me", 'type "ssh-dss" is not accepted; it must be one of ssh-ed25519'],
    ["", "key is empty"],
    ["ssh-ed25519", 'key has no key data after "ssh-ed25519"'],
    ["ssh-ed25519 not*base64 me", "key has key data that is not base64"],
    ["ssh-ed25519 AAAA", "key has truncated key data"],
    [`ssh-rsa ${sshPublicKey().split(" ")[1]}`, 'key has key data of type "ssh-ed25519", not "ssh-rsa"'],
    [
      `ssh-ed25519 ${Buffer.from("\u0000\u0000\u0000\u000bssh-ed25519\u0000\u0000\u0000\u0001x").toString("base64")}`,
      "not a well-formed ssh-ed25519 public key",
    ],
  ])("refuses the key %j at preview naming key, with no request", async (key, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, { key, title: "laptop" });
    expect(result.failures).toEqual([{ property: "key", reason: expect.stringContaining(reason) }]);
    expect(emulator.controls.log).toEqual([]);
  });

  // The requests the sandbox server refuses (test/emulator/user-keys.test.ts) fail at preview too:
  // one decoder serves both.
  it.each(hostileSshKeys())("refuses %s at preview naming key, with no request", async (_, key, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, { key, title: "laptop" });
    expect(result.failures).toHaveLength(1);
    expect(result.failures?.[0]?.property).toBe("key");
    expect(result.failures?.[0]?.reason).toMatch(/^key has key data that is not a valid \S+ public key: /);
    expect(result.failures?.[0]?.reason).toMatch(reason);
    expect(emulator.controls.log).toEqual([]);
  });

  it("records a key by what it decodes to: another text of it is the same input and no change", async () => {
    const line = securityKeyLine("ed25519");
    const other = withPaddingBits(line);
    const inputs = await checked<UserSshKeyInputs>(provider, { key: `${other} me@laptop` });
    expect(inputs.key).toBe(line);
    const created = await provider.create(inputs);
    expect(created.outs).toMatchObject({ key: line });
    expect((await provider.diff(created.id, created.outs, { key: other, title: "" })).changes).toBe(false);
  });

  it("refuses a title that is not a string, naming it", async () => {
    const result = await provider.check({}, { key: sshPublicKey(), title: 7 });
    expect(result.failures?.[0]?.property).toBe("title");
  });

  it("accepts every key type the platform does", async () => {
    for (const type of [
      "ssh-ed25519",
      "ssh-rsa",
      "ecdsa-sha2-nistp256",
      "ecdsa-sha2-nistp384",
      "ecdsa-sha2-nistp521",
    ] as const) {
      const line = sshPublicKey(type);
      expect((await checked<UserSshKeyInputs>(provider, { key: line })).key).toBe(typeAndData(line));
    }
  });

  it("creates with one request, the comment dropped and the title kept; reads with one", async () => {
    const line = sshPublicKey("ssh-ed25519", "me@laptop");
    emulator.controls.clearLog();
    const created = await provider.create(await checked(provider, { key: line, title: "laptop" }));
    expect(requestCounts(emulator)).toEqual({ [`POST ${path}`]: 1 });
    expect(stored()).toHaveLength(1);
    expect(created.id).toBe(String(stored()[0]?.id));
    expect(created.outs).toMatchObject({
      key: typeAndData(line),
      title: "laptop",
      keyId: stored()[0]?.id,
      createdAt: expect.any(String),
    });
    if (kind === "UserSshKey") expect(created.outs).toMatchObject({ verified: true, readOnly: false });

    emulator.controls.clearLog();
    const read = await provider.read(created.id, created.outs);
    expect(Object.values(requestCounts(emulator))).toEqual([1]);
    expect(read.props).toMatchObject({ key: typeAndData(line), title: "laptop" });
    expect(read.inputs).toEqual({ key: typeAndData(line), title: "laptop" });
  });

  it("sees no change in a new comment; replaces on a new key or title, deleting first", async () => {
    const line = sshPublicKey("ssh-ed25519", "old comment");
    const created = await provider.create(await checked(provider, { key: line, title: "a" }));
    const withComment = `${typeAndData(line)} new comment`;
    expect(await provider.diff(created.id, created.outs, { key: withComment, title: "a" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await provider.diff(created.id, created.outs, { key: line, title: "b" })).toEqual({
      changes: true,
      replaces: ["title"],
      deleteBeforeReplace: true,
    });
    expect(await provider.diff(created.id, created.outs, { key: sshPublicKey(), title: "a" })).toEqual({
      changes: true,
      replaces: ["key"],
      deleteBeforeReplace: true,
    });
  });

  it("drops a key deleted outside Pulumi on refresh, and delete tolerates it being gone", async () => {
    const created = await provider.create(await checked(provider, { key: sshPublicKey() }));
    await api(emulator, "DELETE", `${path}/${created.id}`);
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("deletes the key", async () => {
    const created = await provider.create(await checked(provider, { key: sshPublicKey() }));
    await provider.delete(created.id, created.outs);
    expect(stored()).toEqual([]);
  });

  it("adopts the user's key with importId: no write when it is the same, the title shown at preview", async () => {
    const line = sshPublicKey();
    const made = await api(emulator, "POST", path, { key: line, title: "by hand" });
    const importId = String((made.body as { id: number }).id);
    const notices = await noticesOf(async () => {
      const preview = await provider.check({}, { key: line, title: "by hand", importId });
      expect(preview.failures ?? []).toEqual([]);
    });
    expect(notices).toEqual([]);
    emulator.controls.clearLog();
    const adopted = await provider.create(await checked(provider, { key: line, title: "by hand", importId }));
    expect(Object.keys(requestCounts(emulator)).every((r) => r.startsWith("GET "))).toBe(true);
    expect(adopted.id).toBe(importId);
    expect(adopted.outs).toMatchObject({ importId, title: "by hand" });

    // Another title: the preview says what adopting changes, and create replaces the key.
    const line2 = sshPublicKey();
    const made2 = await api(emulator, "POST", path, { key: line2, title: "old" });
    const id2 = String((made2.body as { id: number }).id);
    const told = await noticesOf(() => provider.check({}, { key: line2, title: "new", importId: id2 }));
    expect(told.join("")).toContain(`(importId ${id2}): adopting it will change title: "old" => "new"`);
    const replaced = await provider.create(
      await checked(provider, { key: line2, title: "new", importId: id2 }),
    );
    expect(replaced.id).not.toBe(id2);
    expect(
      stored()
        .map((k) => k.title)
        .sort(),
    ).toEqual(["by hand", "new"]);
  });

  it("names importId when there is no such key, and refuses another key's id", async () => {
    const preview = await provider.check({}, { key: sshPublicKey(), importId: "999" });
    expect(preview.failures).toEqual([
      { property: "importId", reason: `importId 999: there is no such ${kind}, or the token cannot see it` },
    ]);
    const other = await api(emulator, "POST", path, { key: sshPublicKey(), title: "other" });
    const otherId = String((other.body as { id: number }).id);
    await expect(
      provider.create(await checked(provider, { key: sshPublicKey(), importId: otherId })),
    ).rejects.toThrow(`importId ${otherId} is another key than key`);
  });

  it("tells the user which importId to set when the key is already theirs", async () => {
    const line = sshPublicKey();
    const made = await api(emulator, "POST", path, { key: line, title: "by hand" });
    const id = (made.body as { id: number }).id;
    await expect(provider.create(await checked(provider, { key: line }))).rejects.toThrow(
      new RegExp(`already one of the user's keys \\(id ${id}\\).*Set importId to ${id} `),
    );
    expect(stored()).toHaveLength(1);
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
    ["answered 502 before the write", { status: 502, when: "before" }],
  ])("never leaves a duplicate, nor the platform's 'in use', when the create is %s", async (_l, fault) => {
    await control(emulator, "POST", "/faults", { method: "POST", path, count: 1, ...fault });
    const created = await provider.create(await checked(provider, { key: sshPublicKey(), title: "t" }));
    expect(stored()).toHaveLength(1);
    expect(String(stored()[0]?.id)).toBe(created.id);
  });
});

describe("UserSshKey beside other accounts", () => {
  it("says a key of another account cannot be added here", async () => {
    const line = sshPublicKey();
    state().sshKeys.push({
      id: 9000,
      user: "octocat",
      title: "theirs",
      key: typeAndData(line),
      createdAt: new Date().toISOString(),
    });
    await expect(sshProvider.create(await checked(sshProvider, { key: line }))).rejects.toThrow(
      /already in use by another account.*generate a new key/,
    );
  });
});

describe("UserGpgKey", () => {
  it.each([
    ["not a key", "armoredPublicKey must be an ASCII-armored public key block"],
    [
      "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nxyz\n-----END PGP PRIVATE KEY BLOCK-----",
      "armoredPublicKey holds a private key",
    ],
    [
      "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----",
      "armoredPublicKey does not parse as a PGP public key block",
    ],
  ])("refuses %j at preview naming armoredPublicKey, with no request", async (armored, reason) => {
    emulator.controls.clearLog();
    const result = await gpgProvider.check({}, { armoredPublicKey: armored });
    expect(result.failures).toEqual([
      { property: "armoredPublicKey", reason: expect.stringContaining(reason) },
    ]);
    expect(emulator.controls.log).toEqual([]);
  });

  it("refuses at preview a key with more signatures of its own than the server reads, with no request", async () => {
    const armored = await gpgKeyWithForgedSignatures(100, 100);
    emulator.controls.clearLog();
    const result = await gpgProvider.check({}, { armoredPublicKey: armored });
    expect(result.failures).toEqual([
      {
        property: "armoredPublicKey",
        reason: expect.stringMatching(
          /^armoredPublicKey holds 202 signatures of its own .*at most 100 are read/,
        ),
      },
    ]);
    expect(emulator.controls.log).toEqual([]);
  });

  it("refuses a truncated block naming armoredPublicKey", async () => {
    const armored = await gpgPublicKey();
    const lines = armored.trim().split("\n");
    const truncated = [...lines.slice(0, 4), lines.at(-1)].join("\n");
    const result = await gpgProvider.check({}, { armoredPublicKey: truncated });
    expect(result.failures?.[0]?.property).toBe("armoredPublicKey");
  });

  it("creates with one request and outputs what the platform read from the key", async () => {
    const armored = await gpgPublicKey(["admin@acme.example", "someone@else.example"]);
    emulator.controls.clearLog();
    const created = await gpgProvider.create(
      await checked<UserGpgKeyInputs>(gpgProvider, { armoredPublicKey: armored, name: "work" }),
    );
    expect(requestCounts(emulator)).toEqual({ "POST /user/gpg_keys": 1 });
    const key = state().gpgKeys[0];
    expect(created.id).toBe(String(key?.id));
    expect(created.outs).toMatchObject({
      armoredPublicKey: armored,
      name: "work",
      keyId: key?.keyId,
      emails: [
        { email: "admin@acme.example", verified: true },
        { email: "someone@else.example", verified: false },
      ],
      subkeyIds: key?.subkeys.map((s) => s.keyId),
      canSign: true,
      canCertify: true,
      canEncryptComms: false,
      revoked: false,
      createdAt: expect.any(String),
    });
    expect(created.outs.expiresAt).toBeUndefined();
    expect(created.outs.keyId).toMatch(/^[0-9A-F]{16}$/);

    emulator.controls.clearLog();
    const read = await gpgProvider.read(created.id, created.outs);
    expect(Object.values(requestCounts(emulator))).toEqual([1]);
    expect(read.inputs).toEqual({ armoredPublicKey: armored, name: "work" });
  });

  it("outputs the expiry of a key that expires", async () => {
    const armored = await gpgPublicKey(["admin@acme.example"], { keyExpirationTime: 86_400 });
    const created = await gpgProvider.create(await checked(gpgProvider, { armoredPublicKey: armored }));
    expect(created.outs.expiresAt).toMatch(/^\d{4}-/);
  });

  it("compares the block without its line endings; replaces on a new key or name, deleting first", async () => {
    const armored = await gpgPublicKey();
    const created = await gpgProvider.create(await checked(gpgProvider, { armoredPublicKey: armored }));
    const crlf = `${armored.replace(/\n/g, "\r\n")}\r\n`;
    expect((await gpgProvider.diff(created.id, created.outs, { armoredPublicKey: crlf })).changes).toBe(
      false,
    );
    expect(
      await gpgProvider.diff(created.id, created.outs, { armoredPublicKey: armored, name: "x" }),
    ).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
    const other = await gpgPublicKey();
    expect((await gpgProvider.diff(created.id, created.outs, { armoredPublicKey: other })).replaces).toEqual([
      "armoredPublicKey",
    ]);
  });

  it("parses a block again only when it changed (a plain preview of a recorded key parses nothing)", async () => {
    const unparsable =
      "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----";
    const again = await gpgProvider.check({ armoredPublicKey: unparsable }, { armoredPublicKey: unparsable });
    expect(again.failures ?? []).toEqual([]);
    const changed = await gpgProvider.check(
      { armoredPublicKey: await gpgPublicKey() },
      { armoredPublicKey: unparsable },
    );
    expect(changed.failures?.[0]?.property).toBe("armoredPublicKey");
  });

  it("adopts the user's key with importId, writing nothing; refuses another key's id", async () => {
    const armored = await gpgPublicKey();
    const made = await api(emulator, "POST", "/user/gpg_keys", { armored_public_key: armored });
    const importId = String((made.body as { id: number }).id);
    const notices = await noticesOf(() => gpgProvider.check({}, { armoredPublicKey: armored, importId }));
    expect(notices).toEqual([]);
    emulator.controls.clearLog();
    const adopted = await gpgProvider.create(
      await checked(gpgProvider, { armoredPublicKey: armored, importId }),
    );
    expect(Object.keys(requestCounts(emulator)).every((r) => r.startsWith("GET "))).toBe(true);
    expect(adopted.id).toBe(importId);
    await expect(
      gpgProvider.create(await checked(gpgProvider, { armoredPublicKey: await gpgPublicKey(), importId })),
    ).rejects.toThrow(`importId ${importId} is another key than armoredPublicKey`);
  });

  it("tells the user which importId to set when the key is already theirs", async () => {
    const armored = await gpgPublicKey();
    const made = await api(emulator, "POST", "/user/gpg_keys", { armored_public_key: armored });
    const id = (made.body as { id: number }).id;
    await expect(
      gpgProvider.create(await checked(gpgProvider, { armoredPublicKey: armored })),
    ).rejects.toThrow(new RegExp(`Set importId to ${id} `));
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
  ])("never leaves a duplicate when the create is %s", async (_l, fault) => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/user/gpg_keys",
      count: 1,
      ...fault,
    });
    const armored = await gpgPublicKey();
    const created = await gpgProvider.create(await checked(gpgProvider, { armoredPublicKey: armored }));
    expect(state().gpgKeys).toHaveLength(1);
    expect(String(state().gpgKeys[0]?.id)).toBe(created.id);
    expect(requestCounts(emulator)["POST /user/gpg_keys"]).toBe(1);
  });
});

describe("a retry refused as 'already in use' after an ambiguous failure", () => {
  const line = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOEX8dCRTvrdtmB0ZcCtctj/qTTjTkNtUPywTvXo3728";
  const place: KeyPlace<ApiSshKey, { key_id: number | string }> = {
    kind: "UserSshKey",
    field: "key",
    routes: ROUTES.sshKeys,
    item: (key_id) => ({ key_id }),
    idOf: (k) => k.id,
    addedAt: (k) => k.created_at ?? undefined,
  };
  const request = {
    body: { key: line },
    isThisKey: (k: ApiSshKey) => k.key === line,
    hasSettings: () => true,
    shown: "the key",
  };
  const inUse = () =>
    new HostingApiError({ code: "validation_failed", status: 422, apiMessage: "key is already in use" });

  /** A client whose first POST times out after the add, and whose list misses it once (a race). */
  function racing(made: ApiSshKey | undefined) {
    const calls: string[] = [];
    let lists = 0;
    const fake = {
      post: async () => {
        calls.push("POST");
        if (calls.filter((c) => c === "POST").length === 1) {
          throw new HostingApiError({ code: "timeout", apiMessage: "headers timeout" });
        }
        throw inUse();
      },
      paginate: async () => {
        calls.push("LIST");
        lists++;
        return lists === 1 || made === undefined ? [] : [made];
      },
    };
    return { client: fake as unknown as HostingClient, calls };
  }

  it("finds the key the failed attempt added instead of reporting the 422", async () => {
    const made = { id: 5, key: line, title: "", created_at: new Date().toISOString() };
    const { client, calls } = racing(made);
    await expect(createOrAdoptKey(client, place, request)).resolves.toEqual(made);
    expect(calls).toEqual(["POST", "LIST", "POST", "LIST"]);
  });

  it("reports it when the key is not the user's after all (another account's)", async () => {
    const { client } = racing(undefined);
    await expect(createOrAdoptKey(client, place, request)).rejects.toThrow(/in use by another account/);
  });
});
