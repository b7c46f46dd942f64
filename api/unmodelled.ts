import { route } from "./route";

const CAMPAIGNS = "/orgs/{org}/campaigns";
const PAT_REQUESTS = "/orgs/{org}/personal-access-token-requests";
const PATS = "/orgs/{org}/personal-access-tokens";
const USAGE = "/users/{username}/settings/billing";

export const unmodelledRoutes = {
  campaigns: {
    list: route(`GET ${CAMPAIGNS}`),
    create: route(`POST ${CAMPAIGNS}`),
    get: route(`GET ${CAMPAIGNS}/{campaign_number}`),
    update: route(`PATCH ${CAMPAIGNS}/{campaign_number}`),
    delete: route(`DELETE ${CAMPAIGNS}/{campaign_number}`),
  },
  contentExclusion: {
    get: route("GET /orgs/{org}/assistant/content_exclusion"),
    set: route("PUT /orgs/{org}/assistant/content_exclusion"),
  },
  events: {
    orgEventsForUser: route("GET /users/{username}/events/orgs/{org}"),
  },
  workspaceAccess: {
    set: route("PUT /orgs/{org}/workspaces/access"),
    addUsers: route("POST /orgs/{org}/workspaces/access/selected_users"),
    removeUsers: route("DELETE /orgs/{org}/workspaces/access/selected_users"),
  },
  patRequests: {
    list: route(`GET ${PAT_REQUESTS}`),
    reviewAll: route(`POST ${PAT_REQUESTS}`),
    review: route(`POST ${PAT_REQUESTS}/{pat_request_id}`),
    repositories: route(`GET ${PAT_REQUESTS}/{pat_request_id}/repositories`),
  },
  pats: {
    list: route(`GET ${PATS}`),
    updateAll: route(`POST ${PATS}`),
    update: route(`POST ${PATS}/{pat_id}`),
    repositories: route(`GET ${PATS}/{pat_id}/repositories`),
  },
  codeQuality: {
    findings: route("GET /repos/{owner}/{repo}/code-quality/findings"),
    finding: route("GET /repos/{owner}/{repo}/code-quality/findings/{finding_number}"),
  },
  workspacesMetadata: {
    devcontainers: route("GET /repos/{owner}/{repo}/workspaces/devcontainers"),
    machines: route("GET /repos/{owner}/{repo}/workspaces/machines"),
    workspaceMachines: route("GET /user/workspaces/{workspace_name}/machines"),
  },
  commitStatuses: {
    create: route("POST /repos/{owner}/{repo}/statuses/{sha}"),
    combined: route("GET /repos/{owner}/{repo}/commits/{ref}/status"),
    list: route("GET /repos/{owner}/{repo}/commits/{ref}/statuses"),
  },
  agentConfiguration: {
    get: route("GET /repos/{owner}/{repo}/assistant/cloud-agent/configuration"),
  },
  userBlocks: {
    list: route("GET /user/blocks"),
    check: route("GET /user/blocks/{username}"),
    block: route("PUT /user/blocks/{username}"),
    unblock: route("DELETE /user/blocks/{username}"),
  },
  emails: {
    setVisibility: route("PATCH /user/email/visibility"),
    list: route("GET /user/emails"),
    add: route("POST /user/emails"),
    delete: route("DELETE /user/emails"),
    listPublic: route("GET /user/public_emails"),
  },
  followers: {
    followers: route("GET /user/followers"),
    following: route("GET /user/following"),
    check: route("GET /user/following/{username}"),
    follow: route("PUT /user/following/{username}"),
    unfollow: route("DELETE /user/following/{username}"),
  },
  gists: {
    create: route("POST /gists"),
    update: route("PATCH /gists/{gist_id}"),
    delete: route("DELETE /gists/{gist_id}"),
    createComment: route("POST /gists/{gist_id}/comments"),
    updateComment: route("PATCH /gists/{gist_id}/comments/{comment_id}"),
    deleteComment: route("DELETE /gists/{gist_id}/comments/{comment_id}"),
    fork: route("POST /gists/{gist_id}/forks"),
    star: route("PUT /gists/{gist_id}/star"),
    unstar: route("DELETE /gists/{gist_id}/star"),
  },
  interactionLimits: {
    get: route("GET /user/interaction-limits"),
    set: route("PUT /user/interaction-limits"),
    remove: route("DELETE /user/interaction-limits"),
  },
  billingUsage: {
    aiCredits: route(`GET ${USAGE}/ai_credit/usage`),
    premiumRequests: route(`GET ${USAGE}/premium_request/usage`),
    usage: route(`GET ${USAGE}/usage`),
    summary: route(`GET ${USAGE}/usage/summary`),
  },
  profile: {
    update: route("PATCH /user"),
    addSocialAccounts: route("POST /user/social_accounts"),
    removeSocialAccounts: route("DELETE /user/social_accounts"),
  },
  subscriptions: {
    mine: route("GET /user/subscriptions"),
    forUser: route("GET /users/{username}/subscriptions"),
  },
} as const;
