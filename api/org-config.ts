import { z } from "zod";
import { apiOrganizationSchema, apiUserSummarySchema } from "./meta";
import { route, STATUS_ONLY } from "./route";

/** The colours of issue types and of issue field options (the platform's `issue-type.color`). */
export const ISSUE_COLORS = ["gray", "blue", "green", "yellow", "orange", "red", "pink", "purple"] as const;
export type IssueColor = (typeof ISSUE_COLORS)[number];
export const ISSUE_FIELD_DATA_TYPES = ["text", "date", "single_select", "multi_select", "number"] as const;
export type IssueFieldDataType = (typeof ISSUE_FIELD_DATA_TYPES)[number];
/** The data types whose fields take options. */
export const ISSUE_FIELD_SELECT_TYPES: readonly IssueFieldDataType[] = ["single_select", "multi_select"];
export const ISSUE_FIELD_VISIBILITIES = ["organization_members_only", "all"] as const;
export type IssueFieldVisibility = (typeof ISSUE_FIELD_VISIBILITIES)[number];

export const apiIssueTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
  is_enabled: z.boolean(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ApiIssueType = z.infer<typeof apiIssueTypeSchema>;

export const apiIssueFieldOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().optional(),
  color: z.string(),
  priority: z.number().int(),
});
export type ApiIssueFieldOption = z.infer<typeof apiIssueFieldOptionSchema>;

export const apiIssueFieldSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().optional(),
  data_type: z.string(),
  visibility: z.string().optional(),
  options: z.array(apiIssueFieldOptionSchema).nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ApiIssueField = z.infer<typeof apiIssueFieldSchema>;

const ISSUE_TYPES = "/orgs/{org}/issue-types";
const ISSUE_FIELDS = "/orgs/{org}/issue-fields";

export const orgConfigRoutes = {
  orgBlocks: {
    list: route("GET /orgs/{org}/blocks", { list: apiUserSummarySchema }),
    check: route("GET /orgs/{org}/blocks/{username}", STATUS_ONLY),
    block: route("PUT /orgs/{org}/blocks/{username}", STATUS_ONLY),
    unblock: route("DELETE /orgs/{org}/blocks/{username}", STATUS_ONLY),
  },
  issueTypes: {
    list: route(`GET ${ISSUE_TYPES}`, { list: apiIssueTypeSchema }),
    create: route(`POST ${ISSUE_TYPES}`, { body: apiIssueTypeSchema }),
    update: route(`PUT ${ISSUE_TYPES}/{issue_type_id}`, { body: apiIssueTypeSchema }),
    delete: route(`DELETE ${ISSUE_TYPES}/{issue_type_id}`, STATUS_ONLY),
  },
  issueFields: {
    list: route(`GET ${ISSUE_FIELDS}`, { list: apiIssueFieldSchema }),
    create: route(`POST ${ISSUE_FIELDS}`, { body: apiIssueFieldSchema }),
    update: route(`PATCH ${ISSUE_FIELDS}/{issue_field_id}`, { body: apiIssueFieldSchema }),
    delete: route(`DELETE ${ISSUE_FIELDS}/{issue_field_id}`, STATUS_ONLY),
  },
  /** The organisation's profile and member policies (read through `GET /orgs/{org}`, `meta.org`). */
  orgSettings: {
    update: route("PATCH /orgs/{org}", { body: apiOrganizationSchema }),
  },
} as const;
