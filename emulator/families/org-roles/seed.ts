/**
 * The platform's predefined organisation roles, which every organisation has (the platform's
 * documentation, "Using organization roles": all-repository read, triage, write, maintain and
 * admin, CI/CD admin and security manager). Custom roles are not modelled: the sandbox creates none.
 */
import type { ORG_ROLE_BASES } from "../../../api";

export type OrgRoleBase = (typeof ORG_ROLE_BASES)[number];

export interface OrgRoleRecord {
  id: number;
  /** The role's name as the API gives it (`all_repo_read`). */
  name: string;
  description: string;
  /** The repository permission it grants on every repository of the organisation, if any. */
  baseRole: OrgRoleBase | null;
  /** The organisation permissions it grants beyond its base role. */
  permissions: string[];
}

declare module "../../core/fixture" {
  interface Fixture {
    /** The predefined organisation roles (absent from data files written before they were modelled). */
    orgRoles?: OrgRoleRecord[];
  }
}

const allRepo = (id: number, base: OrgRoleBase, verb: string): OrgRoleRecord => ({
  id,
  name: `all_repo_${base}`,
  description: `Grants ${verb} access to all repositories in the organization.`,
  baseRole: base,
  permissions: [],
});

/** The predefined roles, in the order the platform lists them. */
export function predefinedRoles(): OrgRoleRecord[] {
  return [
    allRepo(8132, "read", "read"),
    allRepo(8133, "triage", "triage"),
    allRepo(8134, "write", "write"),
    allRepo(8135, "maintain", "maintain"),
    allRepo(8136, "admin", "admin"),
    {
      id: 8137,
      name: "ci_cd_admin",
      description:
        "Grants admin access to manage Actions policies, runners, runner groups, secrets and variables.",
      baseRole: "write",
      permissions: [
        "write_organization_actions_secrets",
        "write_organization_actions_variables",
        "write_organization_runners_and_runner_groups",
      ],
    },
    {
      id: 8138,
      name: "security_manager",
      description:
        "Grants the ability to manage security policies, security alerts, and security configurations for an organization and all its repositories.",
      baseRole: "read",
      permissions: ["read_organization_custom_org_role", "write_organization_security_alerts"],
    },
  ];
}

export const orgRolesFixture = () => ({ orgRoles: predefinedRoles() });
