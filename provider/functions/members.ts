/** `getOrgMembers`: the members of an organisation, every page, by role and 2fa filter. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../client/routes";
import { ORG_MEMBER_FILTERS, ORG_MEMBER_ROLE_FILTERS } from "../client/schemas";
import { fields } from "../internal/check";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

export type OrgMemberRoleFilter = (typeof ORG_MEMBER_ROLE_FILTERS)[number];
export type OrgMemberFilter = (typeof ORG_MEMBER_FILTERS)[number];

export interface GetOrgMembersArgs {
  org: string;
  /** `all` (default), `admin` (owners) or `member`. */
  role?: OrgMemberRoleFilter;
  /** `all` (default); `2fa_disabled` and `2fa_insecure` are answered to owners only. */
  filter?: OrgMemberFilter;
  /** Page size of the requests (1 to 100, default 100); every page is read whatever it is. */
  perPage?: number;
}

export interface OrgMember {
  login: string;
  id: number;
  /** `User` or `Bot`. */
  type: string;
  siteAdmin: boolean;
}

export interface GetOrgMembersResult {
  org: string;
  role: OrgMemberRoleFilter;
  filter: OrgMemberFilter;
  /** In the API's order (by id). */
  members: OrgMember[];
}

const argsSchema = z.strictObject({
  org: fields.name("org"),
  role: z.enum(ORG_MEMBER_ROLE_FILTERS).default("all"),
  filter: z.enum(ORG_MEMBER_FILTERS).default("all"),
  perPage: pageSize,
});

/** The members of `org` the token may see (outsiders see the public members only). */
export async function getOrgMembers(
  args: GetOrgMembersArgs,
  opts?: FunctionOptions,
): Promise<GetOrgMembersResult> {
  const a = parseArgs("getOrgMembers", argsSchema, args);
  const members = await clientOf(opts).paginate(
    ROUTES.members.list,
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
