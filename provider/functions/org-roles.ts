/** `getOrgRoles`: the roles an organisation has (the platform's predefined roles, and its own). */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ORG_ROLE_BASES, orgRolesRoutes } from "../../api/org-roles";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const orgRoleSchema = z
  .object({
    id: z.number().int().meta({ description: "The role's id: what `OrgRoleAssignment.roleId` takes." }),
    name: z.string().meta({ description: "The role's name (`all_repo_read`, `security_manager`, ...)." }),
    description: z.string().optional().meta({ description: "Who the role is for, or what it grants." }),
    baseRole: z
      .enum(ORG_ROLE_BASES)
      .optional()
      .meta({ description: "The repository permission it grants on every repository, if any." }),
    source: z
      .string()
      .optional()
      .meta({ description: "Where it comes from: `Predefined`, `Organization` or `Enterprise`." }),
    permissions: z
      .array(z.string())
      .meta({ description: "The organisation permissions it grants beyond its base role." }),
  })
  .meta({ id: "OrgRole", description: "A role of an organisation." });

export const getOrgRolesFunction = declareFunction({
  name: "getOrgRoles",
  description:
    "The roles of an organisation (`GET /orgs/{org}/organization-roles`): the platform's predefined roles and the organisation's own, with the ids `OrgRoleAssignment` takes. Needs an organisation owner's token: classic scope `admin:org`, or the fine-grained permission `organization_custom_org_roles` read.",
  args: z.strictObject({
    org: field(fields.name("org"), { description: "The organisation's login." }),
  }),
  result: z.object({
    org: output(z.string(), "The organisation asked for."),
    roles: output(z.array(orgRoleSchema), "The roles, in the API's order."),
  }),
});

export type GetOrgRolesArgs = z.input<typeof getOrgRolesFunction.args>;
export type OrgRole = z.infer<typeof orgRoleSchema>;
export type GetOrgRolesResult = z.infer<typeof getOrgRolesFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

/** The roles of `org`. */
export async function getOrgRoles(args: GetOrgRolesArgs, opts?: FunctionOptions): Promise<GetOrgRolesResult> {
  const a = parseArgs(getOrgRolesFunction.name, getOrgRolesFunction.args, args);
  const { roles } = (await clientOf(opts).get(orgRolesRoutes.orgRoles.list, { org: a.org })).data;
  return {
    org: a.org,
    roles: roles.map((r) => ({
      id: r.id,
      name: r.name,
      ...(r.description ? { description: r.description } : {}),
      ...(r.base_role ? { baseRole: r.base_role } : {}),
      ...(r.source ? { source: r.source } : {}),
      permissions: [...r.permissions],
    })),
  };
}

/** `getOrgRoles` taking Inputs; secret when an input is. */
export function getOrgRolesOutput(
  args: InputArgs<GetOrgRolesArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetOrgRolesResult> {
  return outputOf(args, (a: GetOrgRolesArgs) => getOrgRoles(a, opts));
}
