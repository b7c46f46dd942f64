/**
 * getDependencyAlerts against the sandbox: the three lists, the filters sent to the server, every
 * page by cursor, the API version of the enterprise list, validation before any request, Output.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getDependencyAlerts, getDependencyAlertsOutput } from "../../../provider/functions/security";
import { api } from "../resources/helpers";
import { counts, settle, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const REPO = "GET /repos/{owner}/{repo}/depwatch/alerts";
const ORG = "GET /orgs/{org}/depwatch/alerts";
const ENTERPRISE = "GET /enterprises/{enterprise}/depwatch/alerts";

const numbers = (alerts: Array<{ owner: string; repository: string; number: number }>) =>
  alerts.map((a) => `${a.owner}/${a.repository}#${a.number}`);

describe("getDependencyAlerts", () => {
  it("lists a repository's alerts newest first, every page by cursor", async () => {
    const result = await getDependencyAlerts({ owner: "acme-eng", repository: "api", perPage: 1 });
    expect(result.listed).toBe("repository/acme-eng/api");
    expect(numbers(result.alerts)).toEqual(["acme-eng/api#3", "acme-eng/api#2", "acme-eng/api#1"]);
    // One request per page: the first, then each page's Link rel="next" (an `after` cursor).
    expect(counts(emulator)[REPO]).toBe(3);
  });

  it("returns the alert in camelCase", async () => {
    const [alert] = (
      await getDependencyAlerts({ owner: "acme-eng", repository: "api", severity: "critical" })
    ).alerts;
    expect(alert).toMatchObject({
      number: 1,
      owner: "acme-eng",
      repository: "api",
      state: "open",
      severity: "critical",
      package: { ecosystem: "npm", name: "lodash" },
      manifestPath: expect.any(String),
      firstPatchedVersion: "4.17.12",
      vulnerableVersionRange: "< 4.17.12",
      advisory: { summary: "Prototype pollution in lodash", severity: "critical" },
      assignees: ["octocat"],
      dismissedBy: null,
    });
  });

  it("sends the filters to the server", async () => {
    const open = await getDependencyAlerts({
      org: "acme-eng",
      state: "open",
      severity: ["critical", "medium"],
      ecosystem: "npm",
      sort: "created",
      direction: "asc",
    });
    expect(numbers(open.alerts)).toEqual(["acme-eng/api#1", "acme-eng/api#2"]);
    const runtime = await getDependencyAlerts({ org: "acme-eng", scope: "development", package: "minimist" });
    expect(numbers(runtime.alerts)).toEqual(["acme-eng/api#2"]);
    const dismissed = await getDependencyAlerts({ org: "acme-eng", state: ["dismissed"] });
    expect(dismissed.alerts[0]).toMatchObject({
      number: 3,
      dismissedBy: "olivia",
      dismissedReason: "tolerable_risk",
    });
    expect(counts(emulator)[ORG]).toBe(3);
  });

  it("lists an enterprise's alerts with API version 2026-03-10, every page", async () => {
    const result = await getDependencyAlerts({ enterprise: "acme", perPage: 2 });
    expect(numbers(result.alerts)).toEqual([
      "acme-ops/infra#1",
      "acme-eng/api#3",
      "acme-eng/api#2",
      "acme-eng/api#1",
    ]);
    expect(counts(emulator)[ENTERPRISE]).toBe(2);
  });

  it("sees a dismissal made outside the program", async () => {
    const patched = await api(
      emulator,
      "PATCH",
      "/repos/acme-eng/api/depwatch/alerts/1",
      { state: "dismissed", dismissed_reason: "not_used" },
      "svcp_siteadmin",
      { "x-service-api-version": "2026-03-10" },
    );
    expect(patched.status).toBe(200);
    const open = await getDependencyAlerts({
      owner: "acme-eng",
      repository: "api",
      severity: "critical",
      state: "open",
    });
    expect(open.alerts).toEqual([]);
  });

  it.each([
    [{}, "give exactly one of enterprise, org, or owner with repository; got none"],
    [{ org: "acme-eng", enterprise: "acme" }, "got enterprise and org"],
    [{ owner: "acme-eng" }, "repository is required with owner"],
    [{ org: "acme-eng", severity: "severe" }, "severity takes one or a list of: low, medium, high, critical"],
    [{ org: "acme-eng", state: ["open", "closed"] }, "state takes one or a list of"],
    [{ org: "acme-eng", ecosystem: "cargo" }, "ecosystem takes one or a list of"],
    [{ org: "acme-eng", scope: "test" }, 'scope must be one of "development", "runtime" (got "test")'],
    [
      { org: "acme-eng", sort: "severity" },
      'sort must be one of "created", "updated", "epss_percentage" (got "severity")',
    ],
    [{ org: "acme-eng", direction: "up" }, 'direction must be one of "asc", "desc"'],
    [{ org: "acme-eng", package: [] }, "package must not be an empty list"],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getDependencyAlerts(args as never)).rejects.toThrow(message);
    expect(Object.keys(counts(emulator))).toEqual([]);
  });

  it("is secret in its Output form when an input is", async () => {
    const secret = await settle(
      getDependencyAlertsOutput({ owner: pulumi.secret("acme-eng"), repository: "api", state: "open" }),
    );
    expect(secret.secret).toBe(true);
    expect(numbers(secret.value.alerts)).toEqual(["acme-eng/api#2", "acme-eng/api#1"]);
    const plain = await settle(getDependencyAlertsOutput({ org: "acme-eng", state: ["open"] }));
    expect(plain.secret).toBe(false);
  });
});
