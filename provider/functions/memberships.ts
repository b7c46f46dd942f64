/** `getOrgMembers`: the members of an organisation, every page, by role and 2fa filter. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { membershipsRoutes, ORG_MEMBER_FILTERS, ORG_MEMBER_ROLE_FILTERS } from "../../api/memberships";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

export type OrgMemberRoleFilter = (typeof ORG_MEMBER_ROLE_FILTERS)[number];
export type OrgMemberFilter = (typeof ORG_MEMBER_FILTERS)[number];

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const orgMemberSchema = z
  .object({
    login: z.string().meta({ description: "The member's login." }),
    id: z.number().int().meta({ description: "The member's account id." }),
    type: z.string().meta({ description: "`User` or `Bot`." }),
    siteAdmin: z.boolean().meta({ description: "Whether the member is a site administrator." }),
  })
  .meta({ id: "OrgMember", description: "A member of an organisation." });

export const getOrgMembersFunction = declareFunction({
  name: "getOrgMembers",
  description:
    "The members of an organisation the token may see, every page (`GET /orgs/{org}/members`), filtered by role and two-factor state on the server. A member sees the concealed members too, anyone else the public members only. Needs the fine-grained organisation permission Members (read); the public members need no token.",
  args: z.strictObject({
    org: field(fields.name("org"), { description: "The organisation's login." }),
    role: field(z.enum(ORG_MEMBER_ROLE_FILTERS).default("all"), {
      description: "`all` (default), `admin` (owners) or `member`.",
    }),
    filter: field(z.enum(ORG_MEMBER_FILTERS).default("all"), {
      description: "`all` (default); `2fa_disabled` and `2fa_insecure` are answered to owners only.",
    }),
    perPage: pageSize,
  }),
  result: z.object({
    org: output(z.string(), "The organisation asked for."),
    role: output(z.enum(ORG_MEMBER_ROLE_FILTERS), "The role filter applied."),
    filter: output(z.enum(ORG_MEMBER_FILTERS), "The two-factor filter applied."),
    members: output(z.array(orgMemberSchema), "The members, in the API's order (by id)."),
  }),
});

export type GetOrgMembersArgs = z.input<typeof getOrgMembersFunction.args>;
export type OrgMember = z.infer<typeof orgMemberSchema>;
export type GetOrgMembersResult = z.infer<typeof getOrgMembersFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

/** The members of `org` the token may see (outsiders see the public members only). */
export async function getOrgMembers(
  args: GetOrgMembersArgs,
  opts?: FunctionOptions,
): Promise<GetOrgMembersResult> {
  const a = parseArgs(getOrgMembersFunction.name, getOrgMembersFunction.args, args);
  const members = await clientOf(opts).paginate(
    membershipsRoutes.members.list,
    { org: a.org },
    { query: { role: a.role, filter: a.filter, per_page: a.perPage } },
  );
  return {
    org: a.org,
    role: a.role,
    filter: a.filter,
    members: members.map((m) => ({
      login: m.login,
      id: m.id,
      type: m.type ?? "User",
      siteAdmin: m.site_admin ?? false,
    })),
  };
}

/** `getOrgMembers` taking Inputs; secret when an input is. */
export function getOrgMembersOutput(
  args: InputArgs<GetOrgMembersArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetOrgMembersResult> {
  return outputOf(args, (a: GetOrgMembersArgs) => getOrgMembers(a, opts));
}
