/** getUserGpgKeys against the sandbox: the token's user and a named user, pages, validation, Output. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getUserGpgKeys, getUserGpgKeysOutput } from "../../../provider/functions/user-keys";
import { gpgPublicKey } from "../../emulator/helpers";
import { api } from "../resources/helpers";
import { counts, settle, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

async function addKey(name: string): Promise<number> {
  const response = await api(emulator, "POST", "/user/gpg_keys", {
    name,
    armored_public_key: await gpgPublicKey(),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { id: number }).id;
}

describe("getUserGpgKeys", () => {
  it("lists the token's own keys, every page, in camelCase", async () => {
    const ids = [await addKey("laptop"), await addKey("desktop")];
    emulator.controls.clearLog();
    const result = await getUserGpgKeys({ perPage: 1 });
    expect(result.username).toBeUndefined();
    expect(result.keys.map((k) => k.id)).toEqual(ids);
    expect(result.keys[0]).toMatchObject({
      name: "laptop",
      keyId: expect.stringMatching(/^[0-9A-F]{16}$/i),
      emails: [{ email: "admin@acme.example", verified: expect.any(Boolean) }],
      canSign: expect.any(Boolean),
      revoked: false,
      rawKey: expect.stringContaining("BEGIN PGP PUBLIC KEY BLOCK"),
    });
    expect(counts(emulator)["GET /user/gpg_keys"]).toBe(2);
  });

  it("lists a named user's keys", async () => {
    await addKey("laptop");
    expect((await getUserGpgKeys({ username: "admin" })).keys).toHaveLength(1);
    expect(await getUserGpgKeys({ username: "mona" })).toEqual({ username: "mona", keys: [] });
  });

  it("refuses a bad username before any request", async () => {
    await expect(getUserGpgKeys({ username: "a/b" })).rejects.toThrow("username may hold only");
    expect(Object.keys(counts(emulator))).toEqual([]);
  });

  it("is secret in its Output form when an input is", async () => {
    const result = await settle(getUserGpgKeysOutput({ username: pulumi.secret("mona") }));
    expect(result).toEqual({ secret: true, value: { username: "mona", keys: [] } });
    expect((await settle(getUserGpgKeysOutput())).secret).toBe(false);
  });
});
