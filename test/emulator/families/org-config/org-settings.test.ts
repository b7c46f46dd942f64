/**
 * An organisation's profile and member policies (`PATCH /orgs/{org}`, shown by `GET /orgs/{org}` to
 * its owners; the description's operations `orgs/update` and `orgs/get`): what an owner changes,
 * what the others see, and what is refused.
 */
import { describe, expect, it } from "vitest";
import { call, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

const update = (body: Record<string, unknown>, token: string = TOKENS.owner, org = "acme-eng") =>
  call(sandbox.emulator, "PATCH", `/orgs/${org}`, { body, token });

describe("organisation settings", () => {
  it("shows an owner the platform's defaults, and the others none of them", async () => {
    const owner = await call(sandbox.emulator, "GET", "/orgs/acme-eng", { token: TOKENS.owner });
    expect(owner.body).toMatchObject({
      login: "acme-eng",
      description: "Acme engineering",
      billing_email: null,
      default_repository_permission: "read",
      members_can_create_repositories: true,
      members_can_create_public_repositories: true,
      members_can_create_private_repositories: true,
      members_can_create_internal_repositories: true,
      members_allowed_repository_creation_type: "all",
      members_can_fork_private_repositories: false,
      web_commit_signoff_required: false,
    });
    // Unset profile texts are left out: the description gives them no null.
    expect(owner.body.company).toBeUndefined();
    const member = await call(sandbox.emulator, "GET", "/orgs/acme-eng", { token: TOKENS.member });
    expect(member.status).toBe(200);
    expect(member.body.default_repository_permission).toBeUndefined();
    expect(member.body.billing_email).toBeUndefined();
    // Internal repositories exist only in an enterprise: solo has no such policy.
    const solo = await call(sandbox.emulator, "GET", "/orgs/solo");
    expect(solo.body.members_can_create_internal_repositories).toBeUndefined();
  });

  it("changes only the fields given, and answers the organisation", async () => {
    const response = await update({
      billing_email: "billing@acme.example",
      company: "Acme",
      email: "eng@acme.example",
      location: "Lyon",
      blog: "https://acme.example/blog",
      description: "Engineering at Acme",
      default_repository_permission: "write",
      members_can_create_public_repositories: false,
      members_can_fork_private_repositories: true,
      web_commit_signoff_required: true,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      billing_email: "billing@acme.example",
      company: "Acme",
      email: "eng@acme.example",
      location: "Lyon",
      blog: "https://acme.example/blog",
      description: "Engineering at Acme",
      default_repository_permission: "write",
      members_can_create_repositories: true,
      members_can_create_public_repositories: false,
      members_allowed_repository_creation_type: "private",
      members_can_fork_private_repositories: true,
      web_commit_signoff_required: true,
    });
    expect(response.body.updated_at).not.toBe(response.body.created_at);
    // An empty text clears the field.
    const cleared = await update({ company: "", blog: "" });
    expect(cleared.body.company).toBeUndefined();
    expect(cleared.body.blog).toBeUndefined();
    expect(cleared.body.location).toBe("Lyon");
    // The organisation's summary carries the description everywhere.
    const members = await call(sandbox.emulator, "GET", "/orgs/acme-eng", { token: TOKENS.member });
    expect(members.body.description).toBe("Engineering at Acme");
  });

  it("refuses wrong values, naming each field, and changes nothing", async () => {
    const response = await update({
      default_repository_permission: "owner",
      members_can_create_repositories: "no",
      email: "not an address",
      blog: "acme.example",
      description: "x".repeat(161),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "blog",
      "default_repository_permission",
      "description",
      "email",
      "members_can_create_repositories",
    ]);
    const internal = await update(
      { members_can_create_internal_repositories: false },
      TOKENS.siteAdmin,
      "solo",
    );
    expect(internal.status).toBe(422);
    const after = await call(sandbox.emulator, "GET", "/orgs/acme-eng", { token: TOKENS.owner });
    expect(after.body.default_repository_permission).toBe("read");
  });

  it("is for owners: a member gets 403, an unknown organisation 404", async () => {
    expect((await update({ company: "x" }, TOKENS.member)).status).toBe(403);
    expect((await update({ company: "x" }, TOKENS.fineGrained)).status).toBe(200);
    expect((await update({ company: "x" }, TOKENS.install)).status).toBe(403);
    expect((await update({ company: "x" }, TOKENS.siteAdmin, "nope")).status).toBe(404);
  });
});
