/**
 * Accounts by login (`GET /users/{username}`, the description's `users/get-by-username`): a user or
 * an organisation as the public sees it, to anyone, with or without a token.
 */
import { describe, expect, it } from "vitest";
import { call, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

describe("accounts", () => {
  it("shows a user's public profile to anyone", async () => {
    for (const token of [null, TOKENS.noScopes, TOKENS.install]) {
      const response = await call(sandbox.emulator, "GET", "/users/octocat", { token });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        login: "octocat",
        id: 3,
        type: "User",
        site_admin: false,
        name: "Octocat",
        user_view_type: "public",
      });
    }
    expect((await call(sandbox.emulator, "GET", "/users/OCTOCAT")).body.login).toBe("octocat");
  });

  it("shows an organisation as an account of type Organization, and 404 for no one", async () => {
    const org = await call(sandbox.emulator, "GET", "/users/acme-eng");
    expect(org.body).toMatchObject({ login: "acme-eng", id: 100, type: "Organization" });
    expect((await call(sandbox.emulator, "GET", "/users/nobody")).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", "/users/octocat", { token: "svcp_unknown" })).status).toBe(
      401,
    );
  });
});
