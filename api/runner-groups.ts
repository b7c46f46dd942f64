import { z } from "zod";
import { apiOrganizationSchema, apiRepositorySummarySchema } from "./meta";
import { itemsOf } from "./pagination";
import { route, STATUS_ONLY } from "./route";

export const apiRunnerGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  visibility: z.string(),
  default: z.boolean().optional(),
  runners_url: z.string().optional(),
  selected_organizations_url: z.string().optional(),
  selected_repositories_url: z.string().optional(),
  allows_public_repositories: z.boolean().optional(),
  restricted_to_workflows: z.boolean().optional(),
  selected_workflows: z.array(z.string()).optional(),
  workflow_restrictions_read_only: z.boolean().optional(),
});
export type ApiRunnerGroup = z.infer<typeof apiRunnerGroupSchema>;

export const apiRunnerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  os: z.string().optional(),
  status: z.string().optional(),
  busy: z.boolean().optional(),
  runner_group_id: z.number().int().optional(),
});
export type ApiRunner = z.infer<typeof apiRunnerSchema>;

const RUNNER_GROUP = { body: apiRunnerGroupSchema } as const;
const RUNNER_GROUP_LIST = { list: apiRunnerGroupSchema, select: itemsOf("runner_groups") } as const;
const RUNNER_LIST = { list: apiRunnerSchema, select: itemsOf("runners") } as const;
const RUNNER_GROUPS_E = "/enterprises/{enterprise}/actions/runner-groups";
const RUNNER_GROUPS_O = "/orgs/{org}/actions/runner-groups";

export const runnerGroupsRoutes = {
  enterpriseRunnerGroups: {
    list: route(`GET ${RUNNER_GROUPS_E}`, RUNNER_GROUP_LIST),
    create: route(`POST ${RUNNER_GROUPS_E}`, RUNNER_GROUP),
    get: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}`, RUNNER_GROUP),
    update: route(`PATCH ${RUNNER_GROUPS_E}/{runner_group_id}`, RUNNER_GROUP),
    delete: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}`, STATUS_ONLY),
    runners: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}/runners`, RUNNER_LIST),
    setRunners: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/runners`, STATUS_ONLY),
    addRunner: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/runners/{runner_id}`),
    removeRunner: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}/runners/{runner_id}`),
    organizations: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}/organizations`, {
      list: apiOrganizationSchema,
      select: itemsOf("organizations"),
    }),
    setOrganizations: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/organizations`, STATUS_ONLY),
    addOrganization: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/organizations/{org_id}`),
    removeOrganization: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}/organizations/{org_id}`),
  },
  orgRunnerGroups: {
    list: route(`GET ${RUNNER_GROUPS_O}`, RUNNER_GROUP_LIST),
    create: route(`POST ${RUNNER_GROUPS_O}`, RUNNER_GROUP),
    get: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}`, RUNNER_GROUP),
    update: route(`PATCH ${RUNNER_GROUPS_O}/{runner_group_id}`, RUNNER_GROUP),
    delete: route(`DELETE ${RUNNER_GROUPS_O}/{runner_group_id}`, STATUS_ONLY),
    runners: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}/runners`, RUNNER_LIST),
    setRunners: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/runners`, STATUS_ONLY),
    addRunner: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/runners/{runner_id}`),
    removeRunner: route(`DELETE ${RUNNER_GROUPS_O}/{runner_group_id}/runners/{runner_id}`),
    repositories: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}/repositories`, {
      list: apiRepositorySummarySchema,
      select: itemsOf("repositories"),
    }),
    setRepositories: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/repositories`, STATUS_ONLY),
  },
  runners: {
    listOrg: route("GET /orgs/{org}/actions/runners"),
  },
} as const;
