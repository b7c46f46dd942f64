/**
 * Seed facts of the security and review family (DESIGN.md, "the whole seed"): teams, issues with
 * field values, pull request #7, dependency alerts, and the dependency graph's automatic and static
 * sources, added to the default fixture by the family (index.ts).
 */
import type {
  AdvisoryRecord,
  AdvisoryVulnerability,
  DependencyAlertRecord,
  DependencyGraphSource,
  IssueRecord,
  PullRequestRecord,
  TeamRecord,
} from "./records";

declare module "../../core/fixture" {
  // Optional: a data file or a fixture written before the family has none, and its routes then
  // find nothing.
  interface Fixture {
    /** Teams of organisations (acme-eng: `platform`, with octocat). */
    teams?: TeamRecord[];
    /** Issues with field values; #2 of acme-eng/api transferred, #3 deleted. */
    issues?: IssueRecord[];
    /** Pull requests (#7 of acme-eng/api); copied into the state, where review requests change them. */
    pullRequests?: PullRequestRecord[];
    /** Dependency alerts; copied into the state, where updates change them. */
    dependencyAlerts?: DependencyAlertRecord[];
    /** What the platform detects by itself (automatic submissions, static analysis). */
    dependencyGraph?: DependencyGraphSource[];
  }
}

const NPM_LODASH: AdvisoryVulnerability = {
  package: { ecosystem: "npm", name: "lodash" },
  severity: "critical",
  vulnerable_version_range: "< 4.17.12",
  first_patched_version: { identifier: "4.17.12" },
};
const NPM_MINIMIST: AdvisoryVulnerability = {
  package: { ecosystem: "npm", name: "minimist" },
  severity: "medium",
  vulnerable_version_range: "< 1.2.6",
  first_patched_version: { identifier: "1.2.6" },
};
const NPM_AXIOS: AdvisoryVulnerability = {
  package: { ecosystem: "npm", name: "axios" },
  severity: "high",
  vulnerable_version_range: ">= 1.0.0, < 1.6.0",
  first_patched_version: { identifier: "1.6.0" },
};
const PIP_PYYAML: AdvisoryVulnerability = {
  package: { ecosystem: "pip", name: "pyyaml" },
  severity: "high",
  vulnerable_version_range: "<= 6.0.1",
  first_patched_version: null,
};

function advisory(
  id: number,
  vulnerability: AdvisoryVulnerability,
  summary: string,
  score: number,
  epss: number,
  cwe: { cwe_id: string; name: string },
  published: string,
): AdvisoryRecord {
  const ghsa = `GHSA-seed-${String(id).padStart(4, "0")}-demo`;
  const cve = `CVE-2025-${1000 + id}`;
  const vector = "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H";
  return {
    ghsa_id: ghsa,
    cve_id: cve,
    summary,
    description: `${summary}. Upgrade ${vulnerability.package.name} to a version outside ${vulnerability.vulnerable_version_range}.`,
    vulnerabilities: [vulnerability],
    severity: vulnerability.severity,
    cvss: { vector_string: vector, score },
    cvss_severities: { cvss_v3: { vector_string: vector, score }, cvss_v4: null },
    epss: { percentage: epss, percentile: Math.min(1, epss * 20) },
    cwes: [cwe],
    identifiers: [
      { type: "GHSA", value: ghsa },
      { type: "CVE", value: cve },
    ],
    references: [{ url: `https://nvd.nist.gov/vuln/detail/${cve}` }],
    published_at: published,
    updated_at: published,
    withdrawn_at: null,
  };
}

function alert(
  repo: string,
  number: number,
  vulnerability: AdvisoryVulnerability,
  advisoryRecord: AdvisoryRecord,
  created: string,
  rest: Partial<DependencyAlertRecord> = {},
): DependencyAlertRecord {
  return {
    repo,
    number,
    state: "open",
    dependency: {
      package: vulnerability.package,
      manifest_path: vulnerability.package.ecosystem === "pip" ? "requirements.txt" : "package-lock.json",
      scope: "runtime",
    },
    advisory: advisoryRecord,
    classification: "general",
    vulnerability,
    createdAt: created,
    updatedAt: created,
    dismissedAt: null,
    dismissedBy: null,
    dismissedReason: null,
    dismissedComment: null,
    fixedAt: null,
    autoDismissedAt: null,
    assignees: [],
    ...rest,
  };
}

const PROTOTYPE_POLLUTION = { cwe_id: "CWE-1321", name: "Prototype Pollution" };

export function securityFixture(): {
  teams: TeamRecord[];
  issues: IssueRecord[];
  pullRequests: PullRequestRecord[];
  dependencyAlerts: DependencyAlertRecord[];
  dependencyGraph: DependencyGraphSource[];
} {
  return {
    teams: [
      {
        id: 1,
        org: "acme-eng",
        slug: "platform",
        name: "Platform",
        description: "Platform engineering",
        members: ["octocat"],
      },
    ],
    issues: [
      {
        repo: "acme-eng/api",
        number: 1,
        fieldValues: [
          { fieldId: 1, fieldName: "Summary", dataType: "text", value: "Login fails behind the proxy" },
          {
            fieldId: 2,
            fieldName: "Priority",
            dataType: "single_select",
            option: { id: 21, name: "High", color: "red" },
          },
        ],
      },
      {
        repo: "acme-eng/api",
        number: 2,
        fieldValues: [],
        transferredTo: { owner: "acme-eng", repo: "web", number: 4 },
      },
      { repo: "acme-eng/api", number: 3, fieldValues: [], deleted: true },
      // Where #2 of acme-eng/api went: the other field types live here.
      {
        repo: "acme-eng/web",
        number: 4,
        fieldValues: [
          { fieldId: 3, fieldName: "Estimate", dataType: "number", value: 3 },
          { fieldId: 4, fieldName: "Due", dataType: "date", value: "2026-02-01" },
          {
            fieldId: 5,
            fieldName: "Areas",
            dataType: "multi_select",
            options: [
              { id: 51, name: "auth", color: "blue" },
              { id: 52, name: "ui", color: "green" },
            ],
          },
        ],
      },
    ],
    pullRequests: [
      {
        id: 7007,
        repo: "acme-eng/api",
        number: 7,
        title: "Retry logins behind the proxy",
        body: "Fixes #1.",
        user: "octocat",
        state: "open",
        head: { ref: "feature/proxy-retry", sha: "7e1f0c3d9a5b4e2f8c6d1a0b9e8f7c6d5a4b3c2d" },
        base: { ref: "main", sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3" },
        createdAt: "2026-01-10T09:00:00Z",
        updatedAt: "2026-01-10T09:00:00Z",
        requestedReviewers: [],
        requestedTeams: [],
      },
    ],
    dependencyAlerts: [
      alert(
        "acme-eng/api",
        1,
        NPM_LODASH,
        advisory(
          1,
          NPM_LODASH,
          "Prototype pollution in lodash",
          9.8,
          0.0215,
          PROTOTYPE_POLLUTION,
          "2025-06-01T00:00:00Z",
        ),
        "2026-01-02T10:00:00Z",
        { assignees: ["octocat"], updatedAt: "2026-01-20T10:00:00Z" },
      ),
      alert(
        "acme-eng/api",
        2,
        NPM_MINIMIST,
        advisory(
          2,
          NPM_MINIMIST,
          "Prototype pollution in minimist",
          5.6,
          0.0043,
          PROTOTYPE_POLLUTION,
          "2025-07-01T00:00:00Z",
        ),
        "2026-01-03T10:00:00Z",
        {
          dependency: {
            package: NPM_MINIMIST.package,
            manifest_path: "package-lock.json",
            scope: "development",
          },
          updatedAt: "2026-01-03T10:00:00Z",
        },
      ),
      alert(
        "acme-eng/api",
        3,
        NPM_AXIOS,
        advisory(
          3,
          NPM_AXIOS,
          "Cross-site request forgery in axios",
          7.5,
          0.0012,
          { cwe_id: "CWE-352", name: "Cross-Site Request Forgery (CSRF)" },
          "2025-08-01T00:00:00Z",
        ),
        "2026-01-04T10:00:00Z",
        {
          state: "dismissed",
          updatedAt: "2026-01-05T10:00:00Z",
          dismissedAt: "2026-01-05T10:00:00Z",
          dismissedBy: "olivia",
          dismissedReason: "tolerable_risk",
          dismissedComment: "Only used against our own services.",
        },
      ),
      alert(
        "acme-ops/infra",
        1,
        PIP_PYYAML,
        advisory(
          4,
          PIP_PYYAML,
          "Arbitrary code execution in PyYAML",
          8.1,
          0.0871,
          { cwe_id: "CWE-20", name: "Improper Input Validation" },
          "2025-09-01T00:00:00Z",
        ),
        "2026-01-06T10:00:00Z",
      ),
    ],
    dependencyGraph: [
      {
        repo: "acme-eng/api",
        source: "static",
        detector: {
          name: "static-analysis",
          version: "1.0.0",
          url: "https://docs.hosting.invalid/dependency-graph",
        },
        manifests: {
          "package.json": {
            name: "package.json",
            file: { source_location: "package.json" },
            resolved: {
              lodash: { package_url: "pkg:npm/lodash@4.17.11", relationship: "direct", scope: "runtime" },
              minimist: {
                package_url: "pkg:npm/minimist@1.2.5",
                relationship: "direct",
                scope: "development",
              },
            },
          },
          "pom.xml": {
            name: "pom.xml",
            file: { source_location: "pom.xml" },
            resolved: {
              guava: { package_url: "pkg:maven/com.google.guava/guava@30.0-jre", relationship: "direct" },
            },
          },
          "requirements.txt": {
            name: "requirements.txt",
            file: { source_location: "requirements.txt" },
            resolved: { requests: { package_url: "pkg:pypi/requests@2.31.0", relationship: "direct" } },
          },
        },
      },
      {
        repo: "acme-eng/api",
        source: "automatic",
        detector: {
          name: "automatic-maven",
          version: "2.1.0",
          url: "https://docs.hosting.invalid/automatic-submission",
        },
        manifests: {
          "pom.xml": {
            name: "pom.xml",
            file: { source_location: "pom.xml" },
            resolved: {
              guava: { package_url: "pkg:maven/com.google.guava/guava@32.1.3-jre", relationship: "direct" },
              failureaccess: {
                package_url: "pkg:maven/com.google.guava/failureaccess@1.0.1",
                relationship: "indirect",
              },
            },
          },
        },
      },
    ],
  };
}
