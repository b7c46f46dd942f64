/**
 * Branch protection as code: the branches of a repository and what each requires. What a branch's
 * settings leave out is off, and a protection written once shows no change on later previews
 * although the platform answers it in another shape. Used by this example's program and by the
 * root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface ProtectionSettings {
  owner: string;
  repository: string;
  /** Branch name (slashes allowed) -> its protection. */
  branches: Record<string, Omit<hosting.BranchProtectionArgs, "owner" | "repository" | "branch">>;
}

/** Declares one protection per branch; returns each protection's id. */
export function declareBranchProtections(
  settings: ProtectionSettings,
): Record<string, pulumi.Output<string>> {
  const ids: Record<string, pulumi.Output<string>> = {};
  for (const [branch, protection] of Object.entries(settings.branches)) {
    const made = new hosting.BranchProtection(`${settings.owner}/${settings.repository}/${branch}`, {
      owner: settings.owner,
      repository: settings.repository,
      branch,
      ...protection,
    });
    ids[branch] = made.id;
  }
  return ids;
}
