/**
 * `getUser`: an account by its login (`GET /users/{username}`), a user or an organisation, with the
 * id other kinds take (a reviewer's id, a bypass actor's).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { metaRoutes } from "../../api/meta";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const getUserFunction = declareFunction({
  name: "getUser",
  description:
    "An account by its login (`GET /users/{username}`): a user, or an organisation (`type` says which), with its id, what kinds that name people by id take (an environment's reviewers, a ruleset's bypass actors). Public: any token, or none.",
  args: z.strictObject({
    username: field(fields.name("username"), { description: "The login (case-insensitive)." }),
  }),
  result: z.object({
    username: output(z.string(), "The login asked for."),
    id: output(z.number().int(), "The account's id."),
    nodeId: output(z.string(), "The account's node id."),
    login: output(z.string(), "The login as the platform spells it."),
    type: output(z.string(), "`User`, `Organization` or `Bot`."),
    siteAdmin: output(z.boolean(), "Whether the account is a site administrator."),
    name: output(z.string().optional(), "The display name, where the profile has one."),
  }),
});

export type GetUserArgs = z.input<typeof getUserFunction.args>;
export type GetUserResult = z.infer<typeof getUserFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

/** An account by its login. */
export async function getUser(args: GetUserArgs, opts?: FunctionOptions): Promise<GetUserResult> {
  const a = parseArgs(getUserFunction.name, getUserFunction.args, args);
  const u = (await clientOf(opts).get(metaRoutes.meta.account, { username: a.username })).data;
  return {
    username: a.username,
    id: u.id,
    nodeId: u.node_id,
    login: u.login,
    type: u.type,
    siteAdmin: u.site_admin,
    ...(u.name ? { name: u.name } : {}),
  };
}

/** `getUser` taking Inputs; secret when an input is. */
export function getUserOutput(
  args: InputArgs<GetUserArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetUserResult> {
  return outputOf(args, (a: GetUserArgs) => getUser(a, opts));
}
