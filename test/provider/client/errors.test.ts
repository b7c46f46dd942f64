import { RunError } from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import {
  codeForStatus,
  HostingApiError,
  type HostingErrorCode,
  isAmbiguous,
  isHostingApiError,
  isNotFound,
  isRateLimited,
  permissionHint,
  redact,
  refusedEarlierError,
  TOKEN_OPTION,
  unauthorizedHint,
} from "../../../provider/client/errors";

describe("HostingApiError", () => {
  it("is an Error named HostingApiError that keeps every field", () => {
    const cause = new Error("root");
    const error = new HostingApiError({
      code: "forbidden",
      status: 403,
      method: "PUT",
      path: "/api/v3/orgs/acme/actions/permissions",
      apiMessage: "Resource not accessible by integration",
      errors: [{ resource: "Org", field: "enabled", code: "invalid" }],
      documentationUrl: "https://docs.example.com/rest",
      acceptedPermissions: "administration=write",
      acceptedScopes: "admin:org",
      hint: "Ask an owner",
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(HostingApiError);
    // A program that fails on one prints its message only (no stack, no dump of the fields).
    expect(error).toBeInstanceOf(RunError);
    expect(RunError.isInstance(error)).toBe(true);
    expect(error.name).toBe("HostingApiError");
    expect(error.code).toBe("forbidden");
    expect(error.status).toBe(403);
    expect(error.method).toBe("PUT");
    expect(error.path).toBe("/api/v3/orgs/acme/actions/permissions");
    expect(error.apiMessage).toBe("Resource not accessible by integration");
    expect(error.errors).toEqual([{ resource: "Org", field: "enabled", code: "invalid" }]);
    expect(error.documentationUrl).toBe("https://docs.example.com/rest");
    expect(error.acceptedPermissions).toBe("administration=write");
    expect(error.acceptedScopes).toBe("admin:org");
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe(`HostingApiError: ${error.message}`);
  });

  it("has no cause and an empty errors list by default", () => {
    const error = new HostingApiError({ code: "timeout" });
    expect("cause" in error).toBe(false);
    expect(error.errors).toEqual([]);
    expect(error.status).toBeUndefined();
    expect(error.documentationUrl).toBeUndefined();
  });

  describe("message", () => {
    it("names method, path and status before the server's message", () => {
      const error = new HostingApiError({
        code: "not_found",
        status: 404,
        method: "GET",
        path: "/api/v3/orgs/acme/hooks/7",
        apiMessage: "Not Found",
      });
      expect(error.message).toBe("GET /api/v3/orgs/acme/hooks/7 returned 404: Not Found");
    });

    it("leaves out the status when there is none", () => {
      const error = new HostingApiError({
        code: "network_error",
        method: "POST",
        path: "/api/v3/orgs/acme/hooks",
        apiMessage: "network failure",
      });
      expect(error.message).toBe("POST /api/v3/orgs/acme/hooks: network failure");
    });

    it("falls back to the code, in words, without an API message", () => {
      expect(new HostingApiError({ code: "validation_failed" }).message).toBe("validation failed");
      expect(
        new HostingApiError({ code: "server_error", status: 500, method: "GET", path: "/x" }).message,
      ).toBe("GET /x returned 500: server error");
    });

    it("uses only the message when method or path is missing", () => {
      expect(
        new HostingApiError({ code: "bad_request", status: 400, method: "GET", apiMessage: "m" }).message,
      ).toBe("m");
      expect(
        new HostingApiError({ code: "bad_request", status: 400, path: "/p", apiMessage: "m" }).message,
      ).toBe("m");
    });

    it("lists the details of errors[] in parentheses", () => {
      const error = new HostingApiError({
        code: "validation_failed",
        status: 422,
        method: "POST",
        path: "/api/v3/orgs/acme/hooks",
        apiMessage: "Validation Failed",
        errors: [
          { resource: "Hook", field: "name", message: "is reserved" },
          { message: "config.url is missing" },
          { resource: "Hook", field: "events", code: "invalid" },
          { resource: "Hook", code: "custom" },
          { code: "missing" },
          {},
        ],
      });
      expect(error.message).toBe(
        "POST /api/v3/orgs/acme/hooks returned 422: Validation Failed " +
          "(name: is reserved; config.url is missing; Hook.events invalid; Hook custom; missing)",
      );
    });

    it("has no parentheses when every detail is empty", () => {
      const error = new HostingApiError({
        code: "validation_failed",
        apiMessage: "Validation Failed",
        errors: [{}],
      });
      expect(error.message).toBe("Validation Failed");
    });

    it("appends the hint and then the documentation URL", () => {
      const error = new HostingApiError({
        code: "forbidden",
        status: 403,
        method: "GET",
        path: "/p",
        apiMessage: "Must have admin rights",
        errors: [{ message: "x" }],
        hint: "This endpoint needs more",
        documentationUrl: "https://docs.example.com/a",
      });
      expect(error.message).toBe(
        "GET /p returned 403: Must have admin rights (x). This endpoint needs more [https://docs.example.com/a]",
      );
    });

    it("does not put the accepted permissions into the message by itself", () => {
      const error = new HostingApiError({
        code: "forbidden",
        apiMessage: "no",
        acceptedPermissions: "a=write",
      });
      expect(error.message).toBe("no");
    });
  });
});

describe("redact", () => {
  it("replaces every occurrence of the secret", () => {
    expect(redact("Bearer s3cr3t-tok and again s3cr3t-tok.", "s3cr3t-tok")).toBe(
      "Bearer [REDACTED] and again [REDACTED].",
    );
  });

  it("replaces adjacent occurrences", () => {
    expect(redact("abcdabcd", "abcd")).toBe("[REDACTED][REDACTED]");
  });

  it("leaves the text alone when the secret is absent from it", () => {
    expect(redact("nothing here", "s3cr3t-tok")).toBe("nothing here");
  });

  it("does nothing without a secret or with one shorter than 4 characters", () => {
    expect(redact("abc abc", "abc")).toBe("abc abc");
    expect(redact("some text", undefined)).toBe("some text");
    expect(redact("some text", "")).toBe("some text");
    expect(redact("abcd", "abcd")).toBe("[REDACTED]");
  });

  it("treats the secret literally, not as a pattern", () => {
    expect(redact("a.b*c a.b*c axbbc", "a.b*c")).toBe("[REDACTED] [REDACTED] axbbc");
  });
});

describe("predicates", () => {
  const make = (code: HostingErrorCode, status?: number) =>
    new HostingApiError(status === undefined ? { code } : { code, status });

  it("isHostingApiError accepts only instances", () => {
    expect(isHostingApiError(make("not_found", 404))).toBe(true);
    expect(isHostingApiError(new Error("x"))).toBe(false);
    expect(isHostingApiError({ name: "HostingApiError", code: "not_found", status: 404 })).toBe(false);
    expect(isHostingApiError(undefined)).toBe(false);
  });

  it("isNotFound is true only for a 404", () => {
    expect(isNotFound(make("not_found", 404))).toBe(true);
    expect(isNotFound(make("forbidden", 403))).toBe(false);
    expect(isNotFound(make("not_found"))).toBe(false);
    expect(isNotFound(Object.assign(new Error("x"), { status: 404 }))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });

  it("isRateLimited follows the code, whatever the status", () => {
    expect(isRateLimited(make("rate_limited", 429))).toBe(true);
    expect(isRateLimited(make("rate_limited", 403))).toBe(true);
    expect(isRateLimited(make("forbidden", 403))).toBe(false);
    expect(isRateLimited(make("server_error", 503))).toBe(false);
    expect(isRateLimited(Object.assign(new Error("x"), { code: "rate_limited" }))).toBe(false);
  });

  it("isAmbiguous is true for network failures, timeouts and 5xx only", () => {
    expect(isAmbiguous(make("network_error"))).toBe(true);
    expect(isAmbiguous(make("timeout"))).toBe(true);
    expect(isAmbiguous(make("server_error", 500))).toBe(true);
    expect(isAmbiguous(make("server_error", 502))).toBe(true);
    expect(isAmbiguous(make("server_error", 503))).toBe(true);
    expect(isAmbiguous(make("server_error", 599))).toBe(true);
    expect(isAmbiguous(make("bad_request", 400))).toBe(false);
    expect(isAmbiguous(make("not_found", 404))).toBe(false);
    expect(isAmbiguous(make("validation_failed", 422))).toBe(false);
    expect(isAmbiguous(make("rate_limited", 429))).toBe(false);
    expect(isAmbiguous(make("unexpected_response"))).toBe(false);
    expect(isAmbiguous(make("configuration"))).toBe(false);
    expect(isAmbiguous(Object.assign(new Error("x"), { code: "network_error" }))).toBe(false);
  });
});

describe("a refused token (401)", () => {
  const FIX = "set hosting:token (or HOSTING_TOKEN) to a valid token";
  const RUN_PROGRAM =
    "If hosting:token was changed since the last `pulumi up`: `pulumi refresh`, `pulumi preview --refresh` " +
    "and `pulumi destroy` use the provider configuration recorded in the state at that update; " +
    "add --run-program (Pulumi CLI 3.169 or later) to use the current one";

  it("tells the user to fix the token, whatever the headers", () => {
    const hint = `The token is unknown, expired or revoked: ${FIX}`;
    expect(permissionHint(401, undefined, undefined)).toBe(hint);
    expect(permissionHint(401, "administration=write", "repo")).toBe(hint);
    expect(unauthorizedHint()).toBe(hint);
  });

  it("names where the token was set", () => {
    expect(unauthorizedHint({ source: "HOSTING_TOKEN" })).toBe(
      `The token from HOSTING_TOKEN is unknown, expired or revoked: ${FIX}`,
    );
    expect(unauthorizedHint({ source: TOKEN_OPTION })).toBe(
      "The token from the function's token option is unknown, expired or revoked: pass a valid token",
    );
  });

  it("names --run-program only for the provider configuration, which refresh takes from the state", () => {
    expect(unauthorizedHint({ source: "hosting:token", recorded: true })).toBe(
      `The token from hosting:token is unknown, expired or revoked: ${FIX}. ${RUN_PROGRAM}`,
    );
    // The environment is read as it is now, but a hosting:token set since the last update is not.
    expect(unauthorizedHint({ source: "HOSTING_TOKEN", recorded: true })).toContain(RUN_PROGRAM);
    expect(unauthorizedHint({ source: "hosting:token", recorded: false })).not.toContain("--run-program");
  });

  it("points later requests to the first refusal in one short line, keeping code and cause", () => {
    const first = new HostingApiError({
      code: "unauthorized",
      status: 401,
      method: "GET",
      path: "/repos/acme/api/hooks/3",
      apiMessage: "Bad credentials",
      hint: unauthorizedHint({ source: "hosting:token", recorded: true }),
    });
    const notSent = refusedEarlierError(
      { method: "GET", path: "/repos/acme/api/hooks/7" },
      first,
      "hosting:token",
      false,
    );
    expect(notSent.message).toBe(
      "GET /repos/acme/api/hooks/7: hosting:token was refused (401) earlier in this run, so this request was not sent; " +
        "see the first error (GET /repos/acme/api/hooks/3)",
    );
    expect(notSent).toBeInstanceOf(HostingApiError);
    expect(notSent.code).toBe("unauthorized");
    expect(notSent.status).toBeUndefined();
    expect(notSent.cause).toBe(first);
    expect(notSent.message).not.toContain("\n");

    const answered = refusedEarlierError(
      { method: "PATCH", path: "/repos/acme/api/hooks/8" },
      first,
      undefined,
      true,
    );
    expect(answered.message).toBe(
      "PATCH /repos/acme/api/hooks/8 returned 401: the token was refused earlier in this run; " +
        "see the first error (GET /repos/acme/api/hooks/3)",
    );
    expect(answered.status).toBe(401);
  });
});

describe("permissionHint", () => {
  it("names the rule, not a scope, when the server refuses to remove the last owner", () => {
    expect(
      permissionHint(
        403,
        "",
        "admin:org, write:org",
        "Cannot remove admin: they are the last owner of acme-eng.",
      ),
    ).toBe(
      "An organisation keeps at least one owner, whatever the token: make another member an owner (role admin) first, then remove or demote this one",
    );
    // Any other refusal of the same route still names what the endpoint needs.
    expect(
      permissionHint(403, "", "admin:org", "You must be an owner of acme-eng to remove members from it."),
    ).toBe("This endpoint needs a classic token with one of the scopes admin:org");
  });

  it("names the classic scopes", () => {
    expect(permissionHint(403, undefined, "admin:org, write:org")).toBe(
      "This endpoint needs a classic token with one of the scopes admin:org, write:org",
    );
  });

  it("names the fine-grained permission", () => {
    expect(permissionHint(403, "organization_administration=write", undefined)).toBe(
      "This endpoint needs a fine-grained or app token with the permission organization_administration=write",
    );
  });

  it("names both, scopes first", () => {
    expect(permissionHint(403, "administration=write", "repo")).toBe(
      "This endpoint needs a classic token with one of the scopes repo, " +
        "or a fine-grained or app token with the permission administration=write",
    );
  });

  it("gives a 404 as not found or not allowed, with the likely causes in order", () => {
    const causes =
      "Not found, or not allowed to this token. Likely causes, in order: (1) a name or id in the path is " +
      "wrong, or the object was deleted; (2) the token's user cannot see it (not a member, or not an admin of it)";
    expect(permissionHint(404, undefined, undefined)).toBe(causes);
    expect(permissionHint(404, "administration=write", "repo")).toBe(
      `${causes}; (3) the token lacks what the endpoint needs: a classic token with one of the scopes repo, ` +
        "or a fine-grained or app token with the permission administration=write",
    );
  });

  it("has nothing to say on a 403 without headers", () => {
    expect(permissionHint(403, undefined, undefined)).toBeUndefined();
    expect(permissionHint(403, "", "")).toBeUndefined();
  });

  it("has nothing to say for other statuses", () => {
    for (const status of [200, 400, 409, 422, 429, 500]) {
      expect(permissionHint(status, "administration=write", "repo")).toBeUndefined();
    }
  });
});

describe("codeForStatus", () => {
  it.each([
    [400, "bad_request"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not_found"],
    [409, "conflict"],
    [422, "validation_failed"],
    [429, "rate_limited"],
    [500, "server_error"],
    [502, "server_error"],
    [504, "server_error"],
    [302, "unexpected_response"],
    [405, "unexpected_response"],
    [418, "unexpected_response"],
  ] as const)("maps %i to %s", (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});
