/**
 * Deploy keys (the description's `repos/*-deploy-key` operations): add, list, read, delete; the SSH
 * key checks the user keys have (a key OpenSSH accepts, kept canonical, in use once on the whole
 * platform); who may; and keys of a repository that is renamed, archived or deleted.
 */
import { describe, expect, it } from "vitest";
import { call, expectValidationFailed, type Json, sshPublicKey, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();
const KEYS = "/repos/acme-eng/api/keys";

async function add(body: Record<string, unknown>, path = KEYS, token: string = TOKENS.siteAdmin) {
  return call(sandbox.emulator, "POST", path, { body, token });
}

describe("deploy keys", () => {
  it("adds a key in its canonical form, read-write unless asked, titled by its comment by default", async () => {
    const line = sshPublicKey("ssh-ed25519", "deploy@ci");
    const response = await add({ key: `  ${line}  ` });
    expect(response.status, response.text).toBe(201);
    const key = response.body;
    expect(key).toMatchObject({
      key: line.split(" ").slice(0, 2).join(" "),
      title: "deploy@ci",
      read_only: false,
      verified: true,
      added_by: "admin",
      last_used: null,
      enabled: true,
    });
    expect(key.url).toBe(`${sandbox.emulator.url}${KEYS}/${key.id}`);
    const readOnly = await add({ title: "ro", key: sshPublicKey("ecdsa-sha2-nistp256"), read_only: true });
    expect(readOnly.body).toMatchObject({ title: "ro", read_only: true });
    const list = await call(sandbox.emulator, "GET", KEYS);
    expect(list.body.map((k: Json) => k.title)).toEqual(["deploy@ci", "ro"]);
    expect((await call(sandbox.emulator, "GET", `${KEYS}/${key.id}`)).body).toEqual(key);
    // Another repository's key is not this one's.
    expect((await call(sandbox.emulator, "GET", `/repos/acme-eng/web/keys/${key.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${KEYS}/${key.id}`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${KEYS}/${key.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${KEYS}/${key.id}`)).status).toBe(404);
  });

  it("refuses what is not an SSH public key, naming the field", async () => {
    expectValidationFailed(await add({ title: "t" }), "key", "missing_field", "PublicKey");
    const junk = await add({ key: "ssh-ed25519 AAAA" });
    expect(junk.status).toBe(422);
    expect(junk.body.errors[0].message).toMatch(/^key is invalid\./);
    expectValidationFailed(
      await add({ key: sshPublicKey(), read_only: "yes" }),
      "read_only",
      "invalid",
      "PublicKey",
    );
  });

  it("takes a key once on the whole platform: not another deploy key, nor a user's key", async () => {
    const line = sshPublicKey();
    expect((await add({ key: line })).status).toBe(201);
    const again = await add(
      { key: line.replace("test@sandbox", "other comment") },
      "/repos/acme-eng/web/keys",
    );
    expect(again.status).toBe(422);
    expect(again.body.errors[0].message).toBe("key is already in use");
    const userKey = sshPublicKey();
    expect(
      (await call(sandbox.emulator, "POST", "/user/keys", { body: { title: "u", key: userKey } })).status,
    ).toBe(201);
    expect((await add({ key: userKey })).body.errors[0].message).toBe("key is already in use");
  });

  it("is for the repository's admins: 404 to a member, 403 without the scope or permission", async () => {
    expect((await call(sandbox.emulator, "GET", KEYS, { token: TOKENS.member })).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", KEYS, { token: TOKENS.owner })).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", KEYS, { token: TOKENS.noScopes })).status).toBe(403);
    expect((await call(sandbox.emulator, "GET", KEYS, { token: TOKENS.install })).status).toBe(403);
    expect((await add({ key: sshPublicKey() }, KEYS, TOKENS.fineGrained)).status).toBe(201);
  });

  it("follows a renamed repository, refuses new keys on an archived one, and goes with a deleted one", async () => {
    const created = await call(sandbox.emulator, "POST", "/orgs/acme-eng/repos", { body: { name: "svc" } });
    expect(created.status).toBe(201);
    const key = (await add({ key: sshPublicKey() }, "/repos/acme-eng/svc/keys")).body;
    await call(sandbox.emulator, "PATCH", "/repos/acme-eng/svc", {
      body: { name: "service", archived: true },
    });
    expect((await call(sandbox.emulator, "GET", `/repos/acme-eng/service/keys/${key.id}`)).status).toBe(200);
    const refused = await add({ key: sshPublicKey() }, "/repos/acme-eng/service/keys");
    expect(refused.status).toBe(403);
    await call(sandbox.emulator, "PATCH", "/repos/acme-eng/service", { body: { archived: false } });
    expect((await call(sandbox.emulator, "DELETE", "/repos/acme-eng/service")).status).toBe(204);
    await call(sandbox.emulator, "POST", "/orgs/acme-eng/repos", { body: { name: "service" } });
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/service/keys")).body).toEqual([]);
  });
});
