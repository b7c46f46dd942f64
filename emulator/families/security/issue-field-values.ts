/**
 * Issue field values (spec, Issue field values): `GET .../issues/{issue_number}/issue-field-values`,
 * public on public repositories; 301 to where a transferred issue went, 410 for a deleted one.
 */
import type { Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { ApiFailure, notFound, paginate, pathId, urlOf } from "../../core/http";
import { readableRepo, repoKey } from "../../core/lookup";
import { nodeId } from "../../core/render";
import type { IssueFieldValueRecord } from "./records";

/** FG Issues read; public: anyone reads those of a public repository. */
const READ: AccessRule = { scopes: ["repo"], permission: ["issues", "read"], public: true };

/** The node id prefix per data type (as the platform's ids read: IFT_, IFSS_, ...). */
const NODE_TYPE: Record<IssueFieldValueRecord["dataType"], string> = {
  text: "IssueFieldTextValue",
  single_select: "IssueFieldSingleSelectValue",
  number: "IssueFieldNumberValue",
  date: "IssueFieldDateValue",
  multi_select: "IssueFieldMultiSelectValue",
};

export function issueFieldValueRoutes(app: Hono<ServerEnv>): void {
  app.get(ROUTES.issueFieldValues.list.pattern, guard(READ), (c) => {
    const state = c.get("store").state;
    const { repo } = readableRepo(state, c.get("caller"), c.req.param("owner"), c.req.param("repo"), READ);
    const number = pathId(c, "issue_number");
    const key = repoKey(repo);
    const issue = (state.fixture.issues ?? []).find((i) => i.repo === key && i.number === number);
    if (!issue) throw notFound();
    if (issue.deleted) throw new ApiFailure(410, "This issue was deleted");
    if (issue.transferredTo) {
      const to = issue.transferredTo;
      const location = new URL(
        urlOf(c, ROUTES.issueFieldValues.list, { owner: to.owner, repo: to.repo, issue_number: to.number }),
      );
      location.search = new URL(c.req.url).search;
      throw new ApiFailure(301, "Moved Permanently", undefined, { location: location.toString() });
    }
    const values = paginate(c, issue.fieldValues).map((v) => render(v, number));
    return c.json(values);
  });
}

function render(v: IssueFieldValueRecord, issue: number): Record<string, unknown> {
  const base = {
    issue_field_id: v.fieldId,
    issue_field_name: v.fieldName,
    node_id: nodeId(NODE_TYPE[v.dataType], v.fieldId * 1_000_000 + issue),
    data_type: v.dataType,
  };
  if (v.dataType === "single_select") {
    return { ...base, value: v.option?.id ?? null, single_select_option: v.option ?? null };
  }
  if (v.dataType === "multi_select") {
    const options = v.options ?? [];
    return { ...base, value: options.map((o) => o.name).join(","), multi_select_options: options };
  }
  return { ...base, value: v.value ?? null };
}
