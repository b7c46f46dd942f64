/**
 * A deployment policy: no deployment while a repository it configures has an open critical
 * dependency alert. The check runs before any resource is declared, so a failing check stops
 * `pulumi preview` and `pulumi up` (even `up --skip-preview`) before anything changes.
 */
import * as pulumi from "@pulumi/pulumi";
import { type DependencyAlert, getDependencyAlerts, RepositoryWebhook } from "pulumi-hosting";

export interface Repository {
  owner: string;
  repository: string;
}

/** `owner/name` as a repository. */
export function parseRepository(text: string): Repository {
  const [owner, repository, ...rest] = text.split("/");
  if (!owner || !repository || rest.length > 0) {
    throw new pulumi.RunError(`repositories: "${text}" is not owner/name (such as "acme-eng/api")`);
  }
  return { owner, repository };
}

/** The open critical alerts of the repositories, every page of each, read in parallel. */
export async function openCriticalAlerts(repositories: Repository[]): Promise<DependencyAlert[]> {
  const lists = await Promise.all(
    repositories.map((r) => getDependencyAlerts({ ...r, state: "open", severity: "critical" })),
  );
  return lists.flatMap((list) => list.alerts);
}

/** The message a failing deployment shows: one line per alert, with where to look. */
export function policyMessage(alerts: DependencyAlert[]): string {
  const lines = alerts.map(
    (a) =>
      `  ${a.owner}/${a.repository}#${a.number}: ${a.package.name} (${a.package.ecosystem}) ${a.vulnerableVersionRange}, ` +
      `${a.advisory.summary}; fixed in ${a.firstPatchedVersion ?? "no version yet"}: ${a.htmlUrl}`,
  );
  return [
    `Deployment refused: ${alerts.length} open critical dependency alert(s):`,
    ...lines,
    "Upgrade the dependencies, or dismiss the alerts with a reason, then run the deployment again.",
  ].join("\n");
}

/**
 * Fails the program when a repository has an open critical alert. `pulumi.RunError` prints its
 * message without a stack trace: the list of alerts is the whole story.
 */
export async function enforceDependencyPolicy(repositories: Repository[]): Promise<void> {
  const alerts = await openCriticalAlerts(repositories);
  if (alerts.length > 0) throw new pulumi.RunError(policyMessage(alerts));
}

/** The deployment itself: a webhook on each repository that tells the deploy service of pushes. */
export function declareDeployHooks(
  repositories: Repository[],
  url: string,
  secret: pulumi.Input<string>,
): Record<string, pulumi.Output<number>> {
  const hooks: Record<string, pulumi.Output<number>> = {};
  for (const r of repositories) {
    const name = `${r.owner}/${r.repository}`;
    hooks[name] = new RepositoryWebhook(`deploy-${r.owner}-${r.repository}`, {
      ...r,
      url,
      contentType: "json",
      secret,
      events: ["push"],
    }).hookId;
  }
  return hooks;
}
