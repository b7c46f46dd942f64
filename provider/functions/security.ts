/**
 * `getDependencyAlerts`: the dependency alerts of an enterprise, an organisation or a repository,
 * filtered on the server, every page. The lists page by cursor: each `Link: rel="next"` carries an
 * `after` cursor, which the client follows to the last page.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiDependencyAlert,
  DEPENDENCY_ALERT_ECOSYSTEMS,
  DEPENDENCY_ALERT_SCOPES,
  DEPENDENCY_ALERT_SEVERITIES,
  DEPENDENCY_ALERT_SORTS,
  DEPENDENCY_ALERT_STATES,
  securityRoutes,
} from "../../api/security";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, listOf, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

export type DependencyAlertState = (typeof DEPENDENCY_ALERT_STATES)[number];
export type DependencyAlertSeverity = (typeof DEPENDENCY_ALERT_SEVERITIES)[number];
export type DependencyAlertEcosystem = (typeof DEPENDENCY_ALERT_ECOSYSTEMS)[number];
export type DependencyAlertScope = (typeof DEPENDENCY_ALERT_SCOPES)[number];
export type DependencyAlertSort = (typeof DEPENDENCY_ALERT_SORTS)[number];

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const oneOrMany = <T extends readonly [string, ...string[]]>(label: string, values: T) => {
  const message = `${label} takes one or a list of: ${values.join(", ")}`;
  const item = z.enum(values, { error: message });
  return z.union([item, z.array(item, { error: message }).min(1, `${label} must not be an empty list`)], {
    error: message,
  });
};

const nullableString = (description: string) => z.string().nullable().meta({ description });

const alertPackageSchema = z
  .object({
    ecosystem: z.string().meta({ description: "The package's ecosystem (`npm`, `pip`, ...)." }),
    name: z.string().meta({ description: "The package's name." }),
  })
  .meta({ id: "DependencyAlertPackage", description: "The vulnerable package (`dependency.package`)." });

const alertAdvisorySchema = z
  .object({
    ghsaId: z.string().meta({ description: "The advisory's GHSA id." }),
    cveId: nullableString("The advisory's CVE id; null when it has none."),
    summary: z.string().meta({ description: "The advisory's one-line summary." }),
    severity: z.string().meta({ description: "The advisory's own severity." }),
  })
  .meta({ id: "DependencyAlertAdvisory", description: "The security advisory the alert is about." });

const dependencyAlertSchema = z
  .object({
    number: z.number().int().meta({ description: "The alert's number in its repository." }),
    owner: z.string().meta({ description: "The repository's owner." }),
    repository: z.string().meta({ description: "The repository's name." }),
    state: z.string().meta({ description: "`open`, `dismissed`, `fixed` or `auto_dismissed`." }),
    severity: z.string().meta({
      description: "The vulnerability's severity for this dependency (`security_vulnerability.severity`).",
    }),
    package: alertPackageSchema.meta({ description: "The vulnerable package." }),
    manifestPath: z.string().meta({ description: "The manifest that declares the dependency." }),
    scope: nullableString("`runtime` or `development`; null when the manifest does not say."),
    vulnerableVersionRange: z.string().meta({ description: "The versions the vulnerability affects." }),
    firstPatchedVersion: nullableString(
      "`security_vulnerability.first_patched_version.identifier`; null when no fix exists.",
    ),
    advisory: alertAdvisorySchema.meta({ description: "The advisory (`security_advisory`)." }),
    url: z.string().meta({ description: "The alert's API URL." }),
    htmlUrl: z.string().meta({ description: "The alert's web page." }),
    createdAt: z.string().meta({ description: "When the alert was opened (ISO 8601)." }),
    updatedAt: z.string().meta({ description: "When the alert last changed (ISO 8601)." }),
    dismissedAt: nullableString("When the alert was dismissed (ISO 8601); null when it is not."),
    dismissedBy: nullableString("The login of who dismissed it."),
    dismissedReason: nullableString("Why it was dismissed."),
    dismissedComment: nullableString("The comment given when it was dismissed."),
    fixedAt: nullableString("When the alert was fixed (ISO 8601); null when it is not."),
    autoDismissedAt: nullableString(
      "When the alert was dismissed automatically (ISO 8601); null when it was not.",
    ),
    assignees: z.array(z.string()).meta({ description: "The logins of the alert's assignees." }),
  })
  .meta({ id: "DependencyAlert", description: "A dependency alert of a repository." });

export const getDependencyAlertsFunction = declareFunction({
  name: "getDependencyAlerts",
  description:
    "The dependency alerts of an enterprise (`GET /enterprises/{enterprise}/depwatch/alerts`), an organisation (`GET /orgs/{org}/depwatch/alerts`) or a repository (`GET /repos/{owner}/{repo}/depwatch/alerts`): give exactly one of `enterprise`, `org`, or `owner` with `repository`. Filtered on the server, every page (the lists page by cursor: each `Link: rel=\"next\"` carries an `after` cursor). The organisation and repository lists need read access to the repositories' dependency alerts (the fine-grained repository permission Dependency alerts, read); the enterprise list takes classic tokens only (scope `repo` or `security_events`), lists the organisations where the token's user is an owner or security manager, and is sent with API version `2026-03-10`.",
  args: z
    .strictObject({
      enterprise: field(fields.name("enterprise").optional(), {
        description:
          "Every organisation of the enterprise the token's user owns or manages security of (classic tokens only).",
      }),
      org: field(fields.name("org").optional(), { description: "The organisation whose alerts to list." }),
      owner: field(fields.name("owner").optional(), {
        description: "The owner of the repository whose alerts to list (with `repository`).",
      }),
      repository: field(fields.name("repository").optional(), {
        description: "The repository whose alerts to list (with `owner`).",
      }),
      state: field(oneOrMany("state", DEPENDENCY_ALERT_STATES).optional(), {
        description: "Any of: open, dismissed, fixed, auto_dismissed (one or a list).",
      }),
      severity: field(oneOrMany("severity", DEPENDENCY_ALERT_SEVERITIES).optional(), {
        description: "Any of: low, medium, high, critical (one or a list).",
      }),
      ecosystem: field(oneOrMany("ecosystem", DEPENDENCY_ALERT_ECOSYSTEMS).optional(), {
        description: "Any of: composer, go, maven, npm, nuget, pip, pub, rubygems, rust (one or a list).",
      }),
      package: field(
        z
          .union(
            [z.string().min(1), z.array(z.string().min(1)).min(1, "package must not be an empty list")],
            {
              error: "package takes a package name or a non-empty list of them",
            },
          )
          .optional(),
        { description: "Package names (one or a list)." },
      ),
      scope: field(z.enum(DEPENDENCY_ALERT_SCOPES).optional(), {
        description: "`runtime` or `development` dependencies.",
      }),
      sort: field(z.enum(DEPENDENCY_ALERT_SORTS).optional(), {
        description: "`created` (default), `updated` or `epss_percentage`.",
      }),
      direction: field(z.enum(["asc", "desc"]).optional(), { description: "`desc` (default) or `asc`." }),
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
    }),
  result: z.object({
    listed: output(
      z.string(),
      "What was listed: `enterprise/acme`, `org/acme-eng` or `repository/acme-eng/api`.",
    ),
    alerts: output(
      z.array(dependencyAlertSchema),
      "The alerts, in the order asked for (`sort`, `direction`).",
    ),
  }),
});

/** Which alerts: exactly one of `enterprise`, `org`, or `owner` with `repository`. */
export type GetDependencyAlertsArgs = z.input<typeof getDependencyAlertsFunction.args>;
export type DependencyAlert = z.infer<typeof dependencyAlertSchema>;
export type GetDependencyAlertsResult = z.infer<typeof getDependencyAlertsFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

const joined = (value: string | readonly string[] | undefined) => listOf(value)?.join(",");

/** The alerts the token may see, filtered on the server, every page. */
export async function getDependencyAlerts(
  args: GetDependencyAlertsArgs,
  opts?: FunctionOptions,
): Promise<GetDependencyAlertsResult> {
  const a = parseArgs(getDependencyAlertsFunction.name, getDependencyAlertsFunction.args, args);
  const R = securityRoutes.dependencyAlerts;
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
