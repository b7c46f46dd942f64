/**
 * What the six Actions kinds share: the fields that name a secret or a variable and its scope,
 * the organisation's visibility, the values, the outputs, and the scopes errors name.
 *
 * Names: the platform stores them upper-case and compares them case-insensitively. A program may
 * write `deploy_key`: the name is compared upper-cased (`comparable`), so it never shows a change
 * against the server's `DEPLOY_KEY`, state reports it as the program wrote it (`__asWritten`), the
 * output `secretName`/`name` is the stored form, and so is the last part of the id: one object has
 * one id however a program spells it, the id `hosting-import` and `pulumi import` read from the
 * server's lists.
 */

import { z } from "zod";
import {
  ACTIONS_VALUE_MAX_BYTES,
  ACTIONS_VISIBILITIES,
  type ActionsVisibility,
  actionsNameProblem,
  RESERVED_ACTIONS_PREFIX,
} from "../../../api/actions";
import type { HostingClient } from "../../client/http";
import { type CrossFieldRules, fields, selectedIdsFailure } from "../../internal/check";
import { type DiscoveryPlace, field, output } from "../../internal/declare";
import { environmentsAt } from "../environments/shared";
import type { Scope } from "./actions-api";

export type { ActionsVisibility };

/** The platform's limit on environment names. */
const ENVIRONMENT_NAME_MAX = 255;

/** A secret's or a variable's name (`secretName` or `name`), checked as the platform checks it. */
export function nameField(label: string, what: "secret" | "variable") {
  return field(
    z.string({ error: `${label} is required: a name such as "DEPLOY_KEY"` }).superRefine((name, ctx) => {
      const problem = actionsNameProblem(name, label);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    }),
    {
      description: `The ${what}'s name: letters, digits and \`_\`, not starting with a digit or the reserved prefix \`${RESERVED_ACTIONS_PREFIX}\`. The platform stores it upper-case and compares it case-insensitively: \`deploy_key\` and \`DEPLOY_KEY\` name one ${what}, and writing either shows no change. A change replaces the ${what}.`,
      replace: true,
    },
  );
}

/** The environment of an environment secret or variable. */
export function environmentField(what: "secret" | "variable") {
  return field(
    z
      .string({ error: 'environment is required: an environment name such as "production" or "release/eu"' })
      .min(1, "environment must not be empty")
      .max(ENVIRONMENT_NAME_MAX, `environment must be at most ${ENVIRONMENT_NAME_MAX} characters`)
      .refine((v) => v.trim() === v, { error: "environment must not start or end with spaces" }),
    {
      description: `The environment's name as the platform shows it (\`release/eu\`; \`/\` and \`:\` are fine, the provider URL-encodes it). Compared case-insensitively, as the platform does. A change replaces the ${what}. Deleting the environment deletes its ${what}s: refresh then drops this one.`,
      replace: true,
    },
  );
}

const withinLimit = (v: string) => Buffer.byteLength(v, "utf8") <= ACTIONS_VALUE_MAX_BYTES;
const LIMIT = `${ACTIONS_VALUE_MAX_BYTES / 1024} KB`;

/** A secret's value: a secret of the program, sealed on the client for `keyOf`'s public key. */
export function secretValueField(keyOf: string) {
  return field(
    // The messages never repeat the value.
    z
      .string({
        error: "value is required: the secret's value, a string (give it from a secret config value)",
      })
      .min(1, "value must not be empty")
      .refine(withinLimit, { error: `value must be at most ${LIMIT}` }),
    {
      description: `The secret's value (at most ${LIMIT}). Sealed on the client for ${keyOf}'s public key (a key rotated since it was fetched is fetched again and the value sealed anew); state keeps only a salted digest of it (a secret), never the value, and no log line or error shows it. The API never returns it: a value changed outside Pulumi is seen through \`updatedAt\` (the drift check names \`value\`, and \`up --refresh\` sends the program's value again). Changing it updates in place.`,
      secret: true,
    },
  );
}

/** A variable's value, which the API returns in clear. */
export function variableValueField() {
  return field(
    z
      .string({ error: "value is required: the variable's value, a string" })
      .min(1, "value must not be empty")
      .refine(withinLimit, { error: `value must be at most ${LIMIT}` }),
    {
      description: `The variable's value (at most ${LIMIT}), in clear: variables are not secret, the API returns them, so a value changed outside Pulumi is drift. Updates in place.`,
    },
  );
}

/** Which repositories of the organisation may use an organisation secret or variable. */
export function visibilityFields(what: "secret" | "variable") {
  return {
    visibility: field(
      z
        .enum(ACTIONS_VISIBILITIES, {
          error: `visibility must be one of ${ACTIONS_VISIBILITIES.map((v) => `"${v}"`).join(", ")}`,
        })
        .default("private"),
      {
        description: `Which repositories of the organisation may use the ${what}: \`"all"\`, \`"private"\` (default: the private and internal ones) or \`"selected"\` (those of \`selectedRepositoryIds\`). Updates in place.`,
      },
    ),
    selectedRepositoryIds: field(fields.idList("selectedRepositoryIds").optional(), {
      description: `The ids of the repositories that may use the ${what}; a set (order and repeats mean nothing). Only with visibility \`"selected"\`, where it defaults to none. Updates in place.`,
      set: true,
    }),
  };
}

/** Repository ids only with visibility "selected" (the platform refuses them otherwise). */
export const selectedOnly: CrossFieldRules<{
  visibility: string;
  selectedRepositoryIds?: number[] | undefined;
}> = (inputs, pending) => {
  const failure = selectedIdsFailure(inputs, pending, "selectedRepositoryIds");
  return failure ? [failure] : [];
};

/** The server's timestamps of a secret or variable. */
export const actionsOutputs = (what: "secret" | "variable") => ({
  createdAt: output(z.string(), `When the ${what} was created, as the server reports it (ISO 8601).`),
  updatedAt: output(
    z.string(),
    `When the ${what} was last written, as the server reports it (ISO 8601)${what === "secret" ? ": a later one than state recorded means its value was set outside Pulumi" : ""}.`,
  ),
});

// ---------------------------------------------------------------------------------------------
// Scopes, as errors name them
// ---------------------------------------------------------------------------------------------

type Permissions = { classic: string; fineGrained: string };

/** What each kind of object needs: classic scope and fine-grained permission. */
export const ACCESS = {
  orgSecrets: { classic: "admin:org", fineGrained: "organization_secrets write" },
  orgVariables: { classic: "admin:org", fineGrained: "organization_actions_variables write" },
  repoSecrets: { classic: "repo", fineGrained: "secrets write" },
  repoVariables: { classic: "repo", fineGrained: "actions_variables write" },
  environment: { classic: "repo", fineGrained: "environments write" },
} as const satisfies Record<string, Permissions>;

const lacks = (p: Permissions) =>
  `the token lacks the classic scope ${p.classic} (or the fine-grained permission ${p.fineGrained})`;

export function orgScope(org: string, access: Permissions): Scope<{ org: string }> {
  return {
    params: { org },
    what: `organisation ${org}`,
    causes: [`there is no organisation ${org}`, `the token's user is not an owner of ${org}`, lacks(access)],
  };
}

export function repoScope(
  owner: string,
  repo: string,
  access: Permissions,
): Scope<{ owner: string; repo: string }> {
  return {
    params: { owner, repo },
    what: `repository ${owner}/${repo}`,
    causes: [
      `there is no repository ${owner}/${repo}`,
      `the token's user does not administer ${owner}/${repo}`,
      lacks(access),
    ],
  };
}

export function environmentScope(
  owner: string,
  repo: string,
  environment: string,
): Scope<{ owner: string; repo: string; environment_name: string }> {
  return {
    params: { owner, repo, environment_name: environment },
    what: `environment "${environment}" of ${owner}/${repo}`,
    causes: [
      `there is no environment "${environment}" in ${owner}/${repo} (declare it, or create it first), or no such repository`,
      `the token's user does not administer ${owner}/${repo}`,
      lacks(ACCESS.environment),
    ],
  };
}

/**
 * The environments of the repository discovery is at, listed once for the environment secrets and
 * variables both.
 */
export async function environmentsOf(c: HostingClient, place: DiscoveryPlace): Promise<string[]> {
  // The environments family's listing, shared through the place (one GET per repository).
  return (await environmentsAt(c, place)).map((e) => e.name);
}
