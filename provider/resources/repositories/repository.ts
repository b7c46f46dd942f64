/**
 * Repository (`POST /orgs/{org}/repos`, `/repos/{owner}/{repo}`): a repository of an organisation
 * and the settings the program declares.
 *
 * Only declared settings are managed: create and update send them, read reports them, diff
 * compares them; a setting left out is the platform's business (its default, or what someone set),
 * so a default the API fills in never shows as a change. Settings are compared as the platform
 * means them (`comparableSettings`): an empty text is no text, topics are a set in lower case, and a
 * merge setting the API does not show to this token keeps what state knew.
 *
 * A `name` change renames the repository in place (same `repositoryId`); its old name then
 * redirects, and reads follow the repository by the name state records, through redirects, while
 * the engine keeps the resource's id until the next refresh records `org/<new name>` (an update
 * cannot change an id; docs/DECISIONS.md). Create adopts a repository that already has the name
 * (`adopted`), writing only what differs. Destroy does what `onDestroy` says, except to an adopted
 * repository, which it always leaves as it is: a repository this stack did not make is never
 * archived or deleted by it.
 */
import { z } from "zod";
import type { ApiRepository } from "../../../api";
import {
  MAX_TOPICS,
  REPOSITORY_VISIBILITIES,
  repositoriesRoutes,
  TOPIC_PATTERN,
} from "../../../api/repositories";
import { isHostingApiError, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import { createWithoutDuplicates, madeSince, PartialCreateError } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { defineProvider, deleteIgnoringGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";
import {
  comparableSettings,
  converge,
  current,
  currentOrFail,
  type Place,
  SETTINGS,
  type SettingKey,
  type Settings,
  settingsFromApi,
} from "./repository-api";

const REPOSITORY_ROUTES = repositoriesRoutes.repositories;

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

/** What destroying the resource does to the repository. */
export const REPOSITORY_ON_DESTROY = ["archive", "delete", "retain"] as const;
export type RepositoryOnDestroy = (typeof REPOSITORY_ON_DESTROY)[number];

/** A setting that is on or off, which the API calls `wire`. */
const flag = (what: string, wire: string) =>
  field(z.boolean({ error: `${what} must be true or false` }).optional(), {
    description: `${what}. Managed only when set; updates in place.`,
    wire: { path: wire },
  });

const repositoryName = fields
  .name("name")
  .max(100, "name must be at most 100 characters")
  .refine((v) => v !== "." && v !== ".." && !v.toLowerCase().endsWith(".git"), {
    error: 'name cannot be "." or "..", nor end in ".git"',
  });

const topic = z
  .string({ error: "topics must hold strings" })
  .refine((t) => TOPIC_PATTERN.test(t.toLowerCase()), {
    error: (iss) =>
      `topics: ${JSON.stringify(iss.input)} is not a topic (letters, digits and hyphens, starting with a letter or digit, at most 50 characters)`,
  });

export const repositoryKind = declareKind({
  kind: "Repository",
  description:
    "A repository of an organisation (`POST /orgs/{org}/repos`, `/repos/{owner}/{repo}`) with the settings the program declares: only those are managed. A `name` change renames it in place; create adopts a repository that already has the name; destroy archives it by default (`onDestroy`) and never touches an adopted one. Needs an owner's token (or a member's, where the organisation lets members create repositories): classic scope `repo` (`delete_repo` to delete), or the fine-grained permission `administration` write.",
  idFormat: ["org", "name"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description:
        "The organisation owning the repository. A change replaces the resource (the old repository is destroyed per `onDestroy`).",
      replace: true,
    }),
    name: field(repositoryName, {
      description:
        "The repository's name: letters, digits, `.`, `-` and `_`. A change renames the repository in place (same `repositoryId`); its old name then redirects to it. The resource's id keeps the old name until the next refresh records the new one.",
    }),
    description: field(z.string({ error: "description must be a string" }).max(350).optional(), {
      description: 'A short description. `""` clears it. Managed only when set; updates in place.',
      wire: { path: "description" },
    }),
    homepage: field(
      z
        .string({ error: "homepage must be a string" })
        .refine((v) => v === "" || /^https?:\/\/[^\s/]+/.test(v), {
          error: 'homepage must be an absolute http(s) URL, or "" to clear it',
        })
        .optional(),
      {
        description: 'A URL with more about the repository; `""` clears it. Managed only when set.',
        wire: { path: "homepage" },
      },
    ),
    visibility: field(
      z
        .enum(REPOSITORY_VISIBILITIES, {
          error: `visibility must be one of ${REPOSITORY_VISIBILITIES.join(", ")}`,
        })
        .optional(),
      {
        description:
          '`"public"`, `"private"` or `"internal"` (organisations of an enterprise only). The platform makes new repositories public when none is given. Updates in place.',
        wire: { path: "visibility" },
      },
    ),
    hasIssues: flag("Whether issues are on", "has_issues"),
    hasProjects: flag("Whether projects are on", "has_projects"),
    hasWiki: flag("Whether the wiki is on", "has_wiki"),
    isTemplate: flag("Whether the repository is a template", "is_template"),
    defaultBranch: field(
      z
        .string({ error: "defaultBranch must be a string" })
        .min(1, "defaultBranch must not be empty")
        .optional(),
      {
        description:
          "The default branch. It must be one of the repository's branches, unless it has none yet (then it is the name its first push makes). Updates in place.",
        wire: { path: "default_branch" },
      },
    ),
    allowMergeCommit: flag("Whether pull requests may be merged with a merge commit", "allow_merge_commit"),
    allowSquashMerge: flag("Whether pull requests may be squash-merged", "allow_squash_merge"),
    allowRebaseMerge: flag("Whether pull requests may be rebase-merged", "allow_rebase_merge"),
    allowAutoMerge: flag("Whether auto-merge may be turned on for pull requests", "allow_auto_merge"),
    deleteBranchOnMerge: flag(
      "Whether head branches are deleted when their pull requests are merged",
      "delete_branch_on_merge",
    ),
    allowUpdateBranch: flag(
      "Whether a pull request's branch may always be updated from its base",
      "allow_update_branch",
    ),
    archived: field(z.boolean({ error: "archived must be true or false" }).optional(), {
      description:
        "Whether the repository is archived (read-only). An archived repository takes no other change: set it to `false` to change settings (it is unarchived first). Updates in place.",
      wire: { path: "archived" },
    }),
    // No wire path: topics are written through their own route (PUT /repos/{owner}/{repo}/topics).
    topics: field(
      z
        .array(topic, { error: "topics must be a list of strings" })
        .max(MAX_TOPICS, `topics holds at most ${MAX_TOPICS} topics`)
        .optional(),
      {
        description:
          "The repository's topics, as a set (order and case do not matter; the platform saves them in lower case). `[]` removes them all. Managed only when set.",
        set: true,
      },
    ),
    autoInit: field(z.boolean({ error: "autoInit must be true or false" }).optional(), {
      description:
        "Create the repository with an initial commit (an empty README). Only read at create; later changes are ignored.",
      createOnly: true,
    }),
    onDestroy: field(
      z
        .enum(REPOSITORY_ON_DESTROY, {
          error: `onDestroy must be one of ${REPOSITORY_ON_DESTROY.join(", ")}`,
        })
        .default("archive"),
      {
        description:
          'What destroying the resource does: `"archive"` (default) archives the repository (read-only, nothing lost); `"retain"` leaves it as it is; `"delete"` deletes it, the only way this resource removes a repository (the token needs `delete_repo`). A repository the resource adopted (`adopted`) is always left as it is. Changing it updates state only; run `pulumi up` before a destroy that relies on the new value.',
      },
    ),
  }),
  outputs: z.object({
    repositoryId: output(z.number().int(), "The repository's id: it stays the same across renames."),
    fullName: output(z.string(), "`owner/name`, as the platform spells it."),
    htmlUrl: output(z.string(), "The repository's page."),
    cloneUrl: output(z.string(), "The HTTPS clone URL."),
    sshUrl: output(z.string(), "The SSH clone URL."),
    adopted: output(
      z.boolean(),
      "Whether the repository existed before this resource (create adopted it): destroy then leaves it as it is, whatever `onDestroy` says.",
    ),
  }),
  discovery: {
    scope: "org",
    what: ({ org }) => `repositories of ${org}`,
    names: ["{org|module}-repo-{name}"],
    adopted: {
      args: { onDestroy: "retain" },
      comment:
        'A repository before this stack: destroy and removal from code leave it (onDestroy: "retain"; adopted repositories are never archived or deleted).',
    },
    async list(c, { org = "" }): Promise<Found[]> {
      const repos = await c.paginate(REPOSITORY_ROUTES.listForOrg, { org });
      return repos.map((r) => ({ id: repositoryKind.formatId({ org, name: r.name }) }));
    },
  },
});

export type RepositoryArgs = ArgsOf<typeof repositoryKind.inputs>;
export type RepositoryInputs = z.infer<typeof repositoryKind.inputs>;
export type RepositoryOutputs = OutputsOfKind<typeof repositoryKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/**
 * The settings with a wire path (all but the topics). Only those the program declares are managed:
 * reads, writes and comparisons pick them.
 */
const wire = wireMapping<Settings>(repositoryKind.inputs, repositoryKind.rules);

/**
 * Outputs from the repository the API answers: the managed settings (`managed`) as it has them,
 * each falling back to `known` where the answer leaves it out; the program's own fields.
 */
function repositoryOutputs(
  api: ApiRepository,
  managed: readonly SettingKey[],
  known: Settings,
  own: { org: string; autoInit?: boolean | undefined; onDestroy: RepositoryOnDestroy; adopted: boolean },
): RepositoryOutputs {
  const live = settingsFromApi(wire, api) as Record<string, unknown>;
  const fallback = known as Record<string, unknown>;
  const settings = Object.fromEntries(managed.map((k) => [k, live[k] !== undefined ? live[k] : fallback[k]]));
  return compact({
    org: own.org,
    name: api.name,
    ...settings,
    autoInit: own.autoInit,
    onDestroy: own.onDestroy,
    repositoryId: api.id,
    fullName: api.full_name,
    htmlUrl: api.html_url,
    cloneUrl: api.clone_url,
    sshUrl: api.ssh_url,
    adopted: own.adopted,
  }) as RepositoryOutputs;
}

/**
 * The settings the inputs declare, or state records (a text the platform keeps as null, such as an
 * emptied description, is recorded as null and still managed).
 */
function declared(values: object): SettingKey[] {
  const given = values as Record<string, unknown>;
  return SETTINGS.filter((k) => given[k] !== undefined);
}

function settingsOf(values: object): Settings {
  const given = values as Record<string, unknown>;
  return Object.fromEntries(declared(values).map((k) => [k, given[k] ?? undefined])) as Settings;
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = repositoryKind.kind;

function createBody(inputs: RepositoryInputs): Record<string, unknown> {
  // POST /orgs/{org}/repos does not take these: a PATCH after it sets them.
  const { defaultBranch: _branch, allowUpdateBranch: _update, archived: _archived, ...atCreate } = inputs;
  const body: Record<string, unknown> = { name: inputs.name, ...wire.toWire(atCreate as Settings) };
  if (inputs.autoInit !== undefined) body.auto_init = inputs.autoInit;
  return body;
}

const orgNotFound = (org: string, name: string) =>
  notFoundError({
    method: "POST",
    path: REPOSITORY_ROUTES.create.path({ org }),
    what: `${KIND} ${org}/${name}`,
    causes: [`there is no organisation ${org}`, `the token's user cannot see ${org}`],
  });

/** Makes the repository (never twice: after an ambiguous failure it looks for the one it made). */
async function make(c: HostingClient, inputs: RepositoryInputs): Promise<ApiRepository> {
  const at = { owner: inputs.org, name: inputs.name };
  const { value } = await createWithoutDuplicates(
    async () => {
      try {
        return (await c.post(REPOSITORY_ROUTES.create, { org: inputs.org }, createBody(inputs))).data;
      } catch (e) {
        throw isHostingApiError(e) && e.status === 404 ? orgNotFound(inputs.org, inputs.name) : e;
      }
    },
    async (startedAt) => {
      const found = await current(c, at, false);
      return found && madeSince(found.created_at ?? undefined, startedAt) ? found : undefined;
    },
  );
  return value;
}

export const repositoryProvider = defineProvider<typeof repositoryKind.inputs, RepositoryOutputs>(
  repositoryKind,
  {
    comparable: comparableSettings,
    writtenMatters: ["onDestroy"],
    crossField(inputs, pending) {
      const merges = ["allowMergeCommit", "allowSquashMerge", "allowRebaseMerge"] as const;
      if (merges.some((k) => pending.has(k)) || !merges.every((k) => inputs[k] === false)) return [];
      return [
        {
          property: "allowMergeCommit",
          reason:
            "allowMergeCommit, allowSquashMerge and allowRebaseMerge are all false: a repository allows at least one way to merge",
        },
      ];
    },

    async create(inputs) {
      const c = client();
      const id = repositoryKind.formatId(inputs);
      const wanted = { ...settingsOf(inputs), name: inputs.name };
      const own = { org: inputs.org, autoInit: inputs.autoInit, onDestroy: inputs.onDestroy };
      // A repository that already has the name is adopted: only what differs is written.
      const existing = await current(c, { owner: inputs.org, name: inputs.name }, false);
      const adopted = existing !== undefined;
      const made = existing ?? (await make(c, inputs));
      const live = { ...settingsFromApi(wire, made), name: made.name };
      const partial = () => repositoryOutputs(made, declared(inputs), {}, { ...own, adopted });
      try {
        const result = await converge(
          c,
          wire,
          { owner: made.owner.login, name: made.name },
          live,
          wanted,
          `${KIND} ${id}`,
        );
        const answer = result.answer ?? made;
        const topics = result.topics === undefined ? {} : { topics: result.topics };
        const outs = repositoryOutputs({ ...answer, ...topics }, declared(inputs), wanted, {
          ...own,
          adopted,
        });
        return { id, outs };
      } catch (e) {
        throw new PartialCreateError(id, partial(), e);
      }
    },

    async read(id, props) {
      const { org, name: idName } = repositoryKind.parseId(id);
      const at = { owner: props?.org ?? org, name: props?.name ?? idName };
      const live = await current(client(), at);
      // Gone, or another repository took its name: the one Pulumi managed is not there.
      if (!live) return {};
      if (props?.repositoryId !== undefined && live.id !== props.repositoryId) return {};
      // Recorded by a create: the settings the program declared. Otherwise (an import), every one the
      // repository has (a text it keeps none of, such as no description, is not one).
      const has = settingsFromApi(wire, live) as Record<string, unknown>;
      const importing = props?.repositoryId === undefined;
      const managed = importing
        ? SETTINGS.filter((k) => has[k] !== null && has[k] !== undefined)
        : declared(props);
      const outs = repositoryOutputs(live, managed, settingsOf(props ?? {}), {
        org: props?.org ?? org,
        autoInit: props?.autoInit,
        onDestroy: props?.onDestroy ?? "archive",
        // An import (`pulumi import`, the `import` option) takes a repository that exists: adopted.
        adopted: props?.adopted ?? importing,
      });
      return { id: repositoryKind.formatId(outs), props: outs };
    },

    async update(id, olds, news) {
      const c = client();
      const at: Place = { owner: olds.org, name: olds.name };
      const wanted = { ...settingsOf(news), name: news.name };
      const live = { ...settingsOf(olds), name: olds.name };
      const result = await converge(c, wire, at, live, wanted, `${KIND} ${id}`);
      const own = {
        org: news.org,
        autoInit: olds.autoInit,
        onDestroy: news.onDestroy,
        adopted: olds.adopted ?? false,
      };
      if (result.answer === undefined && result.topics === undefined) {
        // Nothing the API holds changed (onDestroy, a respelling the platform means the same way, or
        // a setting no longer declared, which stops being managed): state keeps what it knew of the
        // settings still declared.
        const managed = new Set<string>(declared(news));
        const kept = Object.entries(olds).filter(
          ([k]) => !(SETTINGS as readonly string[]).includes(k) || managed.has(k),
        );
        return { outs: { ...Object.fromEntries(kept), name: wanted.name, ...own } as RepositoryOutputs };
      }
      const answer = result.answer ?? { ...(await currentOrFail(c, KIND, at, id)) };
      const topics = result.topics === undefined ? {} : { topics: result.topics };
      return { outs: repositoryOutputs({ ...answer, ...topics }, declared(news), wanted, own) };
    },

    async delete(id, props) {
      const { org, name: idName } = repositoryKind.parseId(id);
      const what = `${KIND} ${id}`;
      if (props?.adopted) {
        notice(
          `${what}: left as it is: it existed before this stack (adopted), and destroy never archives or deletes a repository it did not make`,
        );
        return;
      }
      const mode = props?.onDestroy ?? "archive";
      if (mode === "retain") return;
      const c = client();
      const live = await current(c, { owner: props?.org ?? org, name: props?.name ?? idName });
      if (!live || (props?.repositoryId !== undefined && live.id !== props.repositoryId)) return;
      const params = { owner: live.owner.login, repo: live.name };
      if (mode === "delete") {
        await deleteIgnoringGone(() => c.delete(REPOSITORY_ROUTES.delete, params));
      } else if (!live.archived) {
        await deleteIgnoringGone(() =>
          c.patch(REPOSITORY_ROUTES.update, params, { archived: true }, { idempotent: true }),
        );
      }
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A repository of an organisation: see its declaration, `repositoryKind`. Example: `examples/repositories/`. */
export class Repository extends resourceClass<RepositoryArgs, RepositoryOutputs>(repositoryProvider) {}
