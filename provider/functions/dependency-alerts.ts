/**
 * `getDependencyAlerts`: the dependency alerts of an enterprise, an organisation or a repository,
 * filtered on the server, every page. The lists page by cursor: each `Link: rel="next"` carries an
 * `after` cursor, which the client follows to the last page.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../client/routes";
import {
  type ApiDependencyAlert,
  DEPENDENCY_ALERT_ECOSYSTEMS,
  DEPENDENCY_ALERT_SCOPES,
  DEPENDENCY_ALERT_SEVERITIES,
  DEPENDENCY_ALERT_SORTS,
  DEPENDENCY_ALERT_STATES,
} from "../client/schemas";
import { fields } from "../internal/check";
import { clientOf, type FunctionOptions, type InputArgs, listOf, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

export type DependencyAlertState = (typeof DEPENDENCY_ALERT_STATES)[number];
export type DependencyAlertSeverity = (typeof DEPENDENCY_ALERT_SEVERITIES)[number];
export type DependencyAlertEcosystem = (typeof DEPENDENCY_ALERT_ECOSYSTEMS)[number];
export type DependencyAlertScope = (typeof DEPENDENCY_ALERT_SCOPES)[number];
export type DependencyAlertSort = (typeof DEPENDENCY_ALERT_SORTS)[number];

/** Which alerts: exactly one of `enterprise`, `org`, or `owner` with `repository`. */
export interface GetDependencyAlertsArgs {
  /** Every organisation of the enterprise the token's user owns or manages security of (classic tokens only). */
  enterprise?: string;
  org?: string;
  owner?: string;
  repository?: string;
  /** Any of: open, dismissed, fixed, auto_dismissed. */
  state?: DependencyAlertState | DependencyAlertState[];
  /** Any of: low, medium, high, critical. */
  severity?: DependencyAlertSeverity | DependencyAlertSeverity[];
  /** Any of: composer, go, maven, npm, nuget, pip, pub, rubygems, rust. */
  ecosystem?: DependencyAlertEcosystem | DependencyAlertEcosystem[];
  /** Package names. */
  package?: string | string[];
  /** runtime or development dependencies. */
  scope?: DependencyAlertScope;
  /** created (default), updated or epss_percentage. */
  sort?: DependencyAlertSort;
  /** desc (default) or asc. */
  direction?: "asc" | "desc";
  /** Page size of the requests (1 to 100, default 100); every page is read whatever it is. */
  perPage?: number;
}

export interface DependencyAlert {
  /** The alert's number in its repository. */
  number: number;
  /** The repository's owner and name. */
  owner: string;
  repository: string;
  state: string;
  /** The vulnerability's severity for this dependency (`security_vulnerability.severity`). */
  severity: string;
  package: { ecosystem: string; name: string };
  manifestPath: string;
  /** runtime or development; null when the manifest does not say. */
  scope: string | null;
  vulnerableVersionRange: string;
  /** `security_vulnerability.first_patched_version.identifier`; null when no fix exists. */
  firstPatchedVersion: string | null;
  advisory: { ghsaId: string; cveId: string | null; summary: string; severity: string };
  url: string;
  htmlUrl: string;
  createdAt: string;
  updatedAt: string;
  dismissedAt: string | null;
  /** The login of who dismissed it. */
  dismissedBy: string | null;
  dismissedReason: string | null;
  dismissedComment: string | null;
  fixedAt: string | null;
  autoDismissedAt: string | null;
  /** Logins. */
  assignees: string[];
}

export interface GetDependencyAlertsResult {
  /** `enterprise/acme`, `org/acme-eng` or `repository/acme-eng/api`: what was listed. */
  listed: string;
  /** In the order asked for (`sort`, `direction`). */
  alerts: DependencyAlert[];
}

const oneOrMany = <T extends readonly [string, ...string[]]>(label: string, values: T) => {
  const message = `${label} takes one or a list of: ${values.join(", ")}`;
  const item = z.enum(values, { error: message });
  return z.union([item, z.array(item, { error: message }).min(1, `${label} must not be an empty list`)], {
    error: message,
  });
};

const argsSchema = z
  .strictObject({
    enterprise: fields.name("enterprise").optional(),
    org: fields.name("org").optional(),
    owner: fields.name("owner").optional(),
    repository: fields.name("repository").optional(),
    state: oneOrMany("state", DEPENDENCY_ALERT_STATES).optional(),
    severity: oneOrMany("severity", DEPENDENCY_ALERT_SEVERITIES).optional(),
    ecosystem: oneOrMany("ecosystem", DEPENDENCY_ALERT_ECOSYSTEMS).optional(),
    package: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1, "package must not be an empty list")], {
        error: "package takes a package name or a non-empty list of them",
      })
      .optional(),
    scope: z.enum(DEPENDENCY_ALERT_SCOPES).optional(),
    sort: z.enum(DEPENDENCY_ALERT_SORTS).optional(),
    direction: z.enum(["asc", "desc"]).optional(),
    perPage: pageSize,
  })
  .superRefine((a, ctx) => {
    const given = [
      a.enterprise !== undefined && "enterprise",
      a.org !== undefined && "org",
      (a.owner !== undefined || a.repository !== undefined) && "owner/repository",
    ].filter((x): x is string => x !== false);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `give exactly one of enterprise, org, or owner with repository; got ${given.length === 0 ? "none" : given.join(" and ")}`,
      });
    } else if ((a.owner === undefined) !== (a.repository === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [a.owner === undefined ? "owner" : "repository"],
        message: `${a.owner === undefined ? "owner" : "repository"} is required with ${a.owner === undefined ? "repository" : "owner"}`,
      });
    }
  });

const joined = (value: string | readonly string[] | undefined) => listOf(value)?.join(",");

/** The alerts the token may see, filtered on the server, every page. */
export async function getDependencyAlerts(
  args: GetDependencyAlertsArgs,
  opts?: FunctionOptions,
): Promise<GetDependencyAlertsResult> {
  const a = parseArgs("getDependencyAlerts", argsSchema, args);
  const R = ROUTES.dependencyAlerts;
  const c = clientOf(opts);
  const options = {
    query: {
      state: joined(a.state),
      severity: joined(a.severity),
      ecosystem: joined(a.ecosystem),
      package: joined(a.package),
      scope: a.scope,
      sort: a.sort,
      direction: a.direction,
      per_page: a.perPage,
    },
  };
  // Each route names its API version: the enterprise list exists in 2026-03-10 only (spec, Versioning).
  let alerts: ApiDependencyAlert[];
  let listed: string;
  if (a.enterprise !== undefined) {
    alerts = await c.paginate(R.listEnterprise, { enterprise: a.enterprise }, options);
    listed = `enterprise/${a.enterprise}`;
  } else if (a.org !== undefined) {
    alerts = await c.paginate(R.listOrg, { org: a.org }, options);
    listed = `org/${a.org}`;
  } else {
    alerts = await c.paginate(
      R.listRepo,
      { owner: a.owner as string, repo: a.repository as string },
      options,
    );
    listed = `repository/${a.owner}/${a.repository}`;
  }
  return { listed, alerts: alerts.map((alert) => alertOf(alert, a.owner, a.repository)) };
}

/** The API's alert in camelCase; the repository comes from the list's `repository` or the args. */
function alertOf(
  alert: ApiDependencyAlert,
  owner: string | undefined,
  repository: string | undefined,
): DependencyAlert {
  const [fromOwner, fromName] = (alert.repository?.full_name ?? "").split("/");
  return {
    number: alert.number,
    owner: fromOwner || owner || "",
    repository: fromName || repository || "",
    state: alert.state,
    severity: alert.security_vulnerability.severity,
    package: { ecosystem: alert.dependency.package.ecosystem, name: alert.dependency.package.name },
    manifestPath: alert.dependency.manifest_path,
    scope: alert.dependency.scope ?? null,
    vulnerableVersionRange: alert.security_vulnerability.vulnerable_version_range,
    firstPatchedVersion: alert.security_vulnerability.first_patched_version?.identifier ?? null,
    advisory: {
      ghsaId: alert.security_advisory.ghsa_id,
      cveId: alert.security_advisory.cve_id,
      summary: alert.security_advisory.summary,
      severity: alert.security_advisory.severity,
    },
    url: alert.url,
    htmlUrl: alert.html_url,
    createdAt: alert.created_at,
    updatedAt: alert.updated_at,
    dismissedAt: alert.dismissed_at,
    dismissedBy: alert.dismissed_by?.login ?? null,
    dismissedReason: alert.dismissed_reason,
    dismissedComment: alert.dismissed_comment,
    fixedAt: alert.fixed_at,
    autoDismissedAt: alert.auto_dismissed_at ?? null,
    assignees: (alert.assignees ?? []).map((u) => u.login),
  };
}

/** `getDependencyAlerts` taking Inputs; secret when an input is. */
export function getDependencyAlertsOutput(
  args: InputArgs<GetDependencyAlertsArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetDependencyAlertsResult> {
  return outputOf(args, (a: GetDependencyAlertsArgs) => getDependencyAlerts(a, opts));
}
