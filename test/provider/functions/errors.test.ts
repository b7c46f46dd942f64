/**
 * How a function's failure reaches the user: a `HostingApiError` callers can catch (instanceof,
 * status, code) that is also the SDK's `RunError`, which the program runner prints as its message
 * alone, as the engine prints a resource's (no stack trace, no dump of the fields); and a refused
 * token asked once per client.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { HostingApiError } from "../../../provider/client/errors";
import { getBranch, getBranches, getBranchOutput } from "../../../provider/functions/git";
import { counts, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const GET = "GET /repos/{owner}/{repo}/branches/{branch}";
const LIST = "GET /repos/{owner}/{repo}/branches";
const missing = { owner: "acme-eng", repository: "api", branch: "no-such-branch" };

async function failure(promise: Promise<unknown>): Promise<HostingApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HostingApiError))
    throw new Error(`expected a HostingApiError, got ${String(error)}`);
  return error;
}

/** What the SDK's program runner prints for an unhandled error (cmd/run: RunError's message only). */
function printed(error: Error): string {
  // (RunError has Error's shape, so the type guard would leave `never` on the other branch.)
  const stack = error.stack;
  return pulumi.RunError.isInstance(error) ? error.message : `${stack}`;
}

/**
 * The error an Output failed with (`Output#promise`, what the SDK awaits), its other promises
 * (known, secret) handled, as the SDK handles them.
 */
function rejection<T>(output: pulumi.Output<T>): Promise<unknown> {
  const impl = output as unknown as {
    promise(): Promise<T>;
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
  };
  impl.isKnown.catch(() => undefined);
  impl.isSecret.catch(() => undefined);
  return impl.promise();
}

describe("a function's failure", () => {
  it("is a HostingApiError callers can catch, printed as one line like a resource's", async () => {
    const error = await failure(getBranch(missing));
    expect(error.status).toBe(404);
    expect(error.code).toBe("not_found");
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect(printed(error)).toMatch(/^GET \/repos\/acme-eng\/api\/branches\/no-such-branch returned 404: /);
    expect(printed(error)).not.toMatch(/\n|\bat \w|code: /);
  });

  it("prints the same way from an Output", async () => {
    const error = await failure(rejection(getBranchOutput(missing)));
    expect(error.code).toBe("not_found");
    expect(printed(error)).not.toContain("\n");
  });
});

describe("a refused token, in the program's process", () => {
  it("is asked once: the first error says what to do (the program's config is current), later ones are not sent", async () => {
    useEnvironmentToken(emulator, "svcp_refused_in_functions");
    const first = await failure(getBranch({ ...missing, branch: "main" }));
    expect(first.message).toContain(
      "The token from HOSTING_TOKEN is unknown, expired or revoked: set hosting:token (or HOSTING_TOKEN) to a valid token",
    );
    expect(first.message).not.toContain("--run-program");

    const later = await failure(getBranches({ owner: "acme-eng", repository: "api" }));
    expect(later.code).toBe("unauthorized");
    expect(printed(later)).toBe(
      "GET /repos/acme-eng/api/branches?per_page=100: HOSTING_TOKEN was refused (401) earlier in this run, so this request " +
        "was not sent; see the first error (GET /repos/acme-eng/api/branches/main)",
    );
    expect(counts(emulator)[GET]).toBe(1);
    expect(counts(emulator)[LIST]).toBeUndefined();

    // Another token is another client, which asks.
    const branch = await getBranch({ ...missing, branch: "main" }, { token: "svcp_siteadmin" });
    expect(branch.name).toBe("main");
  });

  it("names the function's token option when that is where it came from", async () => {
    const error = await failure(
      getBranch({ ...missing, branch: "main" }, { token: "svcp_refused_as_option" }),
    );
    expect(error.message).toContain(
      "The token from the function's token option is unknown, expired or revoked: pass a valid token",
    );
  });
});
