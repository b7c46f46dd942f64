/** Organisation roles: OrgRoleAssignment (the roles themselves: `getOrgRoles`). */
export * from "./org-role-assignment";
