import * as hosting from "pulumi-hosting";

export interface OrganizationSettings {
  /** The organisation's login; changing it renames the organisation (pulumi up waits for the job). */
  login: string;
  /** Its first owner; used only at creation. */
  admin: string;
  profileName?: string;
  /** A user who is not a member, to block. */
  blocked: string;
}

export function declareOrganization(settings: OrganizationSettings): Record<string, unknown> {
  const org = new hosting.Organization(settings.login, {
    login: settings.login,
    admin: settings.admin,
    ...(settings.profileName ? { profileName: settings.profileName } : {}),
  });
  // The organisation's current login, so a rename carries through to everything declared in it.
  const login = org.login;
  const bug = new hosting.IssueType("bug", {
    org: login,
    name: "Bug",
    description: "Something is not working",
    color: "red",
  });
  const feature = new hosting.IssueType("feature", {
    org: login,
    name: "Feature",
    description: "A new capability",
    color: "blue",
  });
  // Options compare as a list by name: reordering changes their priority; an option renamed is a
  // new one (and the old one is deleted with the values issues held).
  const priority = new hosting.IssueField("priority", {
    org: login,
    name: "Priority",
    dataType: "single_select",
    visibility: "all",
    options: [
      { name: "Urgent", color: "red" },
      { name: "High", color: "orange" },
      { name: "Low", color: "gray", description: "When there is time" },
    ],
  });
  new hosting.OrgBlock(`block-${settings.blocked}`, { org: login, username: settings.blocked });
  // Only the settings named here are managed; destroying the stack leaves the organisation as it is.
  new hosting.OrgSettings("settings", {
    org: login,
    description: "The platform team's organisation",
    blog: "https://platform.acme.example",
    defaultRepositoryPermission: "read",
    membersCanCreatePublicRepositories: false,
    webCommitSignoffRequired: true,
  });
  return {
    orgId: org.orgId,
    issueTypeIds: { bug: bug.issueTypeId, feature: feature.issueTypeId },
    priorityFieldId: priority.issueFieldId,
  };
}
