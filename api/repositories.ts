/**
 * Repositories and their deploy keys, as the platform's published description serves them (the
 * spec names the repository Administration group without its endpoints): an organisation's
 * repositories (`/orgs/{org}/repos`), one repository (`/repos/{owner}/{repo}`: read, update,
 * rename, archive, delete), its topics and its deploy keys.
 */
import { z } from "zod";
import { apiRepositorySummarySchema } from "./meta";
import { route, STATUS_ONLY } from "./route";

export const REPOSITORY_VISIBILITIES = ["public", "private", "internal"] as const;
export type RepositoryVisibility = (typeof REPOSITORY_VISIBILITIES)[number];

/** What the platform allows in a topic: lower-case letters, digits and hyphens, at most 50 characters. */
export const TOPIC_PATTERN = /^[a-z0-9][a-z0-9-]{0,49}$/;
/** The most topics a repository may have. */
export const MAX_TOPICS = 20;

/**
 * A repository as its page and its writes answer (the description's `full-repository`). The merge
 * settings are shown only to callers who may change them, so they may be absent; `topics` too, on
 * platforms that leave them out. Everything else passes through (`loose`).
 */
export const apiRepositorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    full_name: z.string(),
    owner: z.object({ login: z.string() }).loose(),
    private: z.boolean(),
    visibility: z.string().optional(),
    description: z.string().nullable(),
    homepage: z.string().nullable().optional(),
    html_url: z.string(),
    clone_url: z.string(),
    ssh_url: z.string(),
    default_branch: z.string(),
    has_issues: z.boolean(),
    has_projects: z.boolean(),
    has_wiki: z.boolean(),
    is_template: z.boolean().optional(),
    archived: z.boolean(),
    allow_merge_commit: z.boolean().optional(),
    allow_squash_merge: z.boolean().optional(),
    allow_rebase_merge: z.boolean().optional(),
    allow_auto_merge: z.boolean().optional(),
    delete_branch_on_merge: z.boolean().optional(),
    allow_update_branch: z.boolean().optional(),
    topics: z.array(z.string()).optional(),
    created_at: z.string().nullable().optional(),
  })
  .loose();
export type ApiRepository = z.infer<typeof apiRepositorySchema>;

/** `GET|PUT /repos/{owner}/{repo}/topics`. */
export const apiTopicsSchema = z.object({ names: z.array(z.string()) });

/** A deploy key (`deploy-key`): the key as the platform keeps it (`<type> <base64>`, no comment). */
export const apiDeployKeySchema = z
  .object({
    id: z.number().int(),
    key: z.string(),
    title: z.string(),
    read_only: z.boolean(),
    created_at: z.string(),
    verified: z.boolean().optional(),
  })
  .loose();
export type ApiDeployKey = z.infer<typeof apiDeployKeySchema>;

const REPO = "/repos/{owner}/{repo}";

export const repositoriesRoutes = {
  repositories: {
    /** The organisation's repositories the caller can see, by name. */
    listForOrg: route("GET /orgs/{org}/repos", { list: apiRepositorySummarySchema }),
    create: route("POST /orgs/{org}/repos", { body: apiRepositorySchema }),
    /** A renamed repository's old name answers 301 to where it is now. */
    get: route(`GET ${REPO}`, { body: apiRepositorySchema }),
    update: route(`PATCH ${REPO}`, { body: apiRepositorySchema }),
    delete: route(`DELETE ${REPO}`, STATUS_ONLY),
    topics: route(`GET ${REPO}/topics`, { body: apiTopicsSchema }),
    replaceTopics: route(`PUT ${REPO}/topics`, { body: apiTopicsSchema }),
  },
  deployKeys: {
    list: route(`GET ${REPO}/keys`, { list: apiDeployKeySchema }),
    create: route(`POST ${REPO}/keys`, { body: apiDeployKeySchema }),
    get: route(`GET ${REPO}/keys/{key_id}`, { body: apiDeployKeySchema }),
    delete: route(`DELETE ${REPO}/keys/{key_id}`, STATUS_ONLY),
  },
} as const;
