/**
 * BranchProtection: the protection of one branch (`/repos/{owner}/{repo}/branches/{branch}/protection`).
 *
 * The write and the read differ in shape: the PUT takes flags as booleans and `null` for each part
 * that is off; the GET answers `{enabled}` objects, parts with URLs, people and teams as objects,
 * and leaves out what is off. The provider compares meaning, never shape: what the GET answers is
 * read back into the program's shape (a part that is off is absent, a flag that is off is `false`,
 * people, teams and apps by login or slug), sets compare as sets and names regardless of case, so a
 * protection written once shows no change on any later preview, and one changed outside Pulumi
 * shows the field that changed. Keyed by its branch, so it adopts by construction; destroy removes
 * the protection.
 */
import { z } from "zod";
import {
  type ApiBranchProtection,
  type ApiBranchProtectionWrite,
  branchProtectionRoutes,
  MAX_RESTRICTION_ACTORS,
} from "../../../api/branch-protection";
import { gitRoutes } from "../../../api/git";
import { isNotFound, notFoundError } from "../../client/errors";
import type { CrossFieldRules } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { canonical, changedFields } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { restrictions, reviews, settingsFromApi, statusChecks } from "./shape";

export type {
  BranchProtectionRestrictionsArgs,
  BranchProtectionReviewsArgs,
  BranchProtectionStatusChecksArgs,
} from "./shape";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const flag = (name: string, description: string) =>
  field(z.boolean({ error: `${name} must be true or false` }).default(false), {
    description: `${description} Default \`false\`. Updates in place.`,
  });

/** A branch name as git allows it (slashes included: `release/1.0`). */
const branchName = z
  .string({ error: 'branch is required: a branch name such as "main"' })
  .min(1, "branch must not be empty")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what git refuses
  .refine((v) => !/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|^\/|\/$|\/\/|^-/.test(v), {
    error: (iss) => `branch ${JSON.stringify(iss.input)} is not a branch name git allows`,
  });

export const branchProtectionKind = declareKind({
  kind: "BranchProtection",
  description:
    "The protection of one branch (`/repos/{owner}/{repo}/branches/{branch}/protection`): required status checks, reviews, who may push, and the branch's flags. What the program leaves out is off. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission Administration write (read to refresh).",
  idFormat: ["owner", "repository", "branch"],
  inputs: z.object({
    ...repositoryFields("protection"),
    branch: field(branchName, {
      description: "The branch (`main`, `release/1.0`); it must exist. A change replaces the protection.",
      replace: true,
    }),
    requiredStatusChecks: field(statusChecks.optional(), {
      description:
        "The status checks that must pass before merging; left out, none are required. Updates in place.",
    }),
    enforceAdmins: flag("enforceAdmins", "Whether the protection applies to administrators too."),
    requiredPullRequestReviews: field(reviews.optional(), {
      description: "The reviews a pull request needs; left out, none. Updates in place.",
    }),
    restrictions: field(restrictions.optional(), {
      description:
        "Who may push (users, teams, apps of the organisation); left out, anyone with write access may. Updates in place.",
    }),
    requiredLinearHistory: flag("requiredLinearHistory", "Refuse merge commits."),
    allowForcePushes: flag("allowForcePushes", "Allow force pushes by anyone with write access."),
    allowDeletions: flag("allowDeletions", "Allow the branch to be deleted."),
    requiredConversationResolution: flag(
      "requiredConversationResolution",
      "Require every conversation on the code to be resolved before merging.",
    ),
    lockBranch: flag("lockBranch", "Make the branch read-only."),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `branch protections of ${owner}/${repo}`,
    names: ["{owner}-{repository}-protection-{branch}"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const branches = await c.paginate(
        gitRoutes.branches.list,
        { owner, repo },
        { query: { protected: "true" } },
      );
      return branches.map((b) => ({
        id: branchProtectionKind.formatId({ owner, repository: repo, branch: b.name }),
      }));
    },
  },
});

export type BranchProtectionArgs = ArgsOf<typeof branchProtectionKind.inputs>;
export type BranchProtectionInputs = z.infer<typeof branchProtectionKind.inputs>;
export type BranchProtectionOutputs = OutputsOfKind<typeof branchProtectionKind>;

/** Users, teams and apps of `restrictions` together: at most 100. */
const restrictionLimit: CrossFieldRules<BranchProtectionInputs> = (inputs, pending) => {
  const r = inputs.restrictions;
  if (pending.has("restrictions") || r === undefined) return [];
  const total = r.users.length + r.teams.length + r.apps.length;
  return total > MAX_RESTRICTION_ACTORS
    ? [
        {
          property: "restrictions",
          reason: `restrictions may name at most ${MAX_RESTRICTION_ACTORS} users, teams and apps together; got ${total}`,
        },
      ]
    : [];
};

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

type Identity = Pick<BranchProtectionInputs, "owner" | "repository" | "branch">;

/** The state of a protection read from the API. */
export function protectionFromApi(from: Identity, p: ApiBranchProtection): BranchProtectionOutputs {
  return { owner: from.owner, repository: from.repository, branch: from.branch, ...settingsFromApi(p) };
}

/** The PUT's body: the whole protection, each part that is off as `null`. */
export function protectionBody(inputs: BranchProtectionInputs): ApiBranchProtectionWrite {
  const checks = inputs.requiredStatusChecks;
  const r = inputs.requiredPullRequestReviews;
  const pushers = inputs.restrictions;
  return {
    required_status_checks: checks
      ? { strict: checks.strict, contexts: [...new Set(checks.contexts)] }
      : null,
    enforce_admins: inputs.enforceAdmins,
    required_pull_request_reviews: r
      ? {
          dismiss_stale_reviews: r.dismissStaleReviews,
          require_code_owner_reviews: r.requireCodeOwnerReviews,
          required_approving_review_count: r.requiredApprovingReviewCount,
          require_last_push_approval: r.requireLastPushApproval,
        }
      : null,
    restrictions: pushers
      ? {
          users: [...new Set(pushers.users)],
          teams: [...new Set(pushers.teams)],
          apps: [...new Set(pushers.apps)],
        }
      : null,
    required_linear_history: inputs.requiredLinearHistory,
    allow_force_pushes: inputs.allowForcePushes,
    allow_deletions: inputs.allowDeletions,
    required_conversation_resolution: inputs.requiredConversationResolution,
    lock_branch: inputs.lockBranch,
  };
}

const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);
/** A list of names as a set: case-insensitive, repeats dropped, in one order. */
const nameSet = (v: unknown) => (Array.isArray(v) ? [...new Set(v.map(lower))].sort() : v);

/**
 * What diff compares: owner and repository regardless of case (branch names are case-sensitive),
 * status checks as a set, who may push as sets of names regardless of case.
 */
export function comparable(values: object): object {
  const v = values as Partial<BranchProtectionInputs>;
  const checks = v.requiredStatusChecks;
  const pushers = v.restrictions;
  return {
    ...v,
    owner: lower(v.owner),
    repository: lower(v.repository),
    requiredStatusChecks:
      typeof checks === "object" && checks !== null
        ? { ...checks, contexts: nameSetExact(checks.contexts) }
        : checks,
    restrictions:
      typeof pushers === "object" && pushers !== null
        ? { users: nameSet(pushers.users), teams: nameSet(pushers.teams), apps: nameSet(pushers.apps) }
        : pushers,
  };
}

/** Status check contexts: a set, compared as written (contexts are case-sensitive). */
const nameSetExact = (v: unknown) => (Array.isArray(v) ? [...new Set(v)].sort() : v);

/** The nested parts of `recorded` that mean what `live` means, kept in the program's order and spelling. */
function keepRecordedForm(
  recorded: Partial<BranchProtectionOutputs> | undefined,
  live: BranchProtectionOutputs,
): void {
  if (recorded === undefined) return;
  for (const key of ["requiredStatusChecks", "restrictions"] as const) {
    const before = recorded[key];
    const mine = (comparable({ [key]: before }) as Record<string, unknown>)[key];
    const theirs = (comparable({ [key]: live[key] }) as Record<string, unknown>)[key];
    if (before !== undefined && canonical(mine) === canonical(theirs)) {
      (live as Record<string, unknown>)[key] = before;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const pathOf = (i: Identity) => ({ owner: i.owner, repo: i.repository, branch: i.branch });

async function readProtection(i: Identity): Promise<ApiBranchProtection | undefined> {
  // 404: the branch is not protected (or is gone, or the repository): nothing to manage.
  return readOrGone(
    async () => (await client().get(branchProtectionRoutes.branchProtection.get, pathOf(i))).data,
  );
}

async function writeProtection(inputs: BranchProtectionInputs): Promise<ApiBranchProtection> {
  const path = pathOf(inputs);
  try {
    return (
      await client().put(branchProtectionRoutes.branchProtection.set, path, protectionBody(inputs), {
        idempotent: true,
      })
    ).data;
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw notFoundError({
      method: "PUT",
      path: branchProtectionRoutes.branchProtection.set.path(path),
      what: `BranchProtection ${branchProtectionKind.formatId(inputs)}`,
      causes: [
        `there is no branch ${inputs.branch} in ${inputs.owner}/${inputs.repository} (it must exist before it is protected)`,
        "the token's user does not administer the repository",
        "the token lacks the classic scope repo (or the fine-grained permission Administration write)",
      ],
    });
  }
}

const parseId = (id: string): Identity => {
  const { owner, repository, branch } = branchProtectionKind.parseId(id);
  return { owner, repository, branch };
};

export const branchProtectionProvider = defineProvider<
  typeof branchProtectionKind.inputs,
  BranchProtectionOutputs
>(branchProtectionKind, {
  crossField: restrictionLimit,
  comparable,

  async create(inputs) {
    // A branch already protected as the program says is adopted without a write.
    const live = await readProtection(inputs);
    const current = live && protectionFromApi(inputs, live);
    const same =
      current !== undefined &&
      changedFields(branchProtectionKind.rules, comparable(current), comparable(inputs)).length === 0;
    const outs = same ? current : protectionFromApi(inputs, await writeProtection(inputs));
    keepRecordedForm(inputs, outs);
    return { id: branchProtectionKind.formatId(inputs), outs };
  },

  async read(id, props) {
    const parsed = parseId(id);
    const identity = {
      owner: props?.owner ?? parsed.owner,
      repository: props?.repository ?? parsed.repository,
      branch: parsed.branch,
    };
    const live = await readProtection(identity);
    if (!live) return {};
    const outs = protectionFromApi(identity, live);
    keepRecordedForm(props, outs);
    return { id, props: outs };
  },

  async update(_id, _olds, news) {
    const outs = protectionFromApi(news, await writeProtection(news));
    keepRecordedForm(news, outs);
    return { outs };
  },

  async delete(id, props) {
    const identity = { ...parseId(id), owner: props.owner, repository: props.repository };
    const c = client();
    await deleteIgnoringGone(() =>
      c.delete(branchProtectionRoutes.branchProtection.delete, pathOf(identity)),
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * The protection of one branch: see its declaration, `branchProtectionKind`. Example:
 * `examples/branch-protection/`.
 */
export class BranchProtection extends resourceClass<BranchProtectionArgs, BranchProtectionOutputs>(
  branchProtectionProvider,
) {}
