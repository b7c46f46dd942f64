/**
 * An organisation's issue types (spec, permission matrix "Issue types"; bodies and statuses from
 * the platform's description, operations `orgs/list-issue-types`, `create-issue-type`,
 * `update-issue-type`, `delete-issue-type`).
 *
 * - Read by members (`read:org`), written by owners (`admin:org`); fine-grained and app tokens
 *   need the organisation permission `issue_types`. An unknown organisation or type is a 404.
 * - Create answers 200 (as the description says, not 201); PUT takes the same body, with `name`
 *   and `is_enabled` required; an omitted `description` or `color` keeps its value, `null` clears
 *   it. Names are unique per organisation, case-insensitively; at most `MAX_ISSUE_TYPES` types.
 * - The list is not paged: the description gives it no `per_page` and the types are few.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { notFound, pathId, readBody } from "../../core/http";
import { nodeId } from "../../core/render";
import { timestamp } from "../../core/store";
import {
  configOrg,
  ISSUE_COLORS,
  MAX_ISSUE_TYPES,
  Problems,
  parseDescription,
  parseEnum,
  parseName,
  sameName,
} from "./config";
import type { IssueColor, StoredIssueType } from "./state";

const READ: AccessRule = { scopes: ["read:org"], permission: ["issue_types", "read"] };
const WRITE: AccessRule = { scopes: ["admin:org"], permission: ["issue_types", "write"] };

const R = ROUTES.issueTypes;
const WHAT = "manage issue types";

export function issueTypeRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const org = configOrg(c, "member", "read issue types");
    return c.json(typesOf(c, org).map(renderIssueType));
  });

  app.post(R.create.pattern, guard(WRITE), async (c) => {
    const org = configOrg(c, "owner", WHAT);
    const settings = parseIssueType(await readBody(c), typesOf(c, org), undefined);
    const store = c.get("store");
    const now = timestamp();
    const type: StoredIssueType = {
      id: store.nextId(),
      org: org.login,
      name: settings.name,
      description: settings.description ?? null,
      color: settings.color ?? null,
      isEnabled: settings.isEnabled,
      createdAt: now,
      updatedAt: now,
    };
    store.state.issueTypes.push(type);
    return c.json(renderIssueType(type), 200);
  });

  app.put(R.update.pattern, guard(WRITE), async (c) => {
    const { org, type } = typeContext(c);
    const settings = parseIssueType(await readBody(c), typesOf(c, org), type);
    const next = {
      name: settings.name,
      description: settings.description === undefined ? type.description : settings.description,
      color: settings.color === undefined ? type.color : settings.color,
      isEnabled: settings.isEnabled,
    };
    const changed = (Object.keys(next) as Array<keyof typeof next>).some((k) => next[k] !== type[k]);
    if (changed) Object.assign(type, next, { updatedAt: timestamp() });
    return c.json(renderIssueType(type), 200);
  });

  app.delete(R.delete.pattern, guard(WRITE), (c) => {
    const { type } = typeContext(c);
    const state = c.get("store").state;
    state.issueTypes = state.issueTypes.filter((t) => t.id !== type.id);
    return c.body(null, 204);
  });
}

export function renderIssueType(type: StoredIssueType): Record<string, unknown> {
  return {
    id: type.id,
    node_id: nodeId("IssueType", type.id),
    name: type.name,
    description: type.description,
    color: type.color,
    created_at: type.createdAt,
    updated_at: type.updatedAt,
    is_enabled: type.isEnabled,
  };
}

function typesOf(c: Context<ServerEnv>, org: OrgRecord): StoredIssueType[] {
  return c.get("store").state.issueTypes.filter((t) => t.org === org.login);
}

/** The type of the path, of an organisation the caller owns (404 when it has no such type). */
function typeContext(c: Context<ServerEnv>): { org: OrgRecord; type: StoredIssueType } {
  const org = configOrg(c, "owner", WHAT);
  const id = pathId(c, "issue_type_id");
  const type = typesOf(c, org).find((t) => t.id === id);
  if (!type) throw notFound();
  return { org, type };
}

interface IssueTypeSettings {
  name: string;
  isEnabled: boolean;
  /** Undefined: not in the body. */
  description: string | null | undefined;
  color: IssueColor | null | undefined;
}

/**
 * The body of a create or an update (the same for both), checked whole: every problem is named in
 * one 422. `current` is the type being updated, which its own name does not clash with.
 */
function parseIssueType(
  body: Record<string, unknown>,
  existing: readonly StoredIssueType[],
  current: StoredIssueType | undefined,
): IssueTypeSettings {
  const problems = new Problems();
  const name = parseName(problems, body.name, "name");
  let isEnabled: boolean | undefined;
  if (body.is_enabled === undefined) problems.add("is_enabled is missing");
  else if (typeof body.is_enabled !== "boolean") problems.add("is_enabled must be true or false");
  else isEnabled = body.is_enabled;
  const description = parseDescription(problems, body.description, "description");
  const color =
    body.color === undefined || body.color === null
      ? body.color
      : parseEnum(problems, body.color, "color", ISSUE_COLORS);
  if (name !== undefined && existing.some((t) => t.id !== current?.id && sameName(t.name, name))) {
    problems.add(`name ${JSON.stringify(name)} has already been taken by another issue type`);
  }
  if (!current && existing.length >= MAX_ISSUE_TYPES) {
    problems.add(`an organization can have at most ${MAX_ISSUE_TYPES} issue types`);
  }
  problems.check();
  return {
    name: name as string,
    isEnabled: isEnabled as boolean,
    description,
    color: color as IssueColor | null | undefined,
  };
}
