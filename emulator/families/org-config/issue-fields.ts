/**
 * An organisation's issue fields (spec, permission matrix "Issue fields"; bodies and statuses from
 * the platform's description, operations `orgs/list-issue-fields`, `create-issue-field`,
 * `update-issue-field`, `delete-issue-field`).
 *
 * - Read by members (`read:org`), written by owners (`admin:org`); fine-grained and app tokens
 *   need the organisation permission `issue_fields`. An unknown organisation or field is a 404.
 * - Create answers 200 (as the description says). Names are unique per organisation,
 *   case-insensitively; at most `MAX_ISSUE_FIELDS` fields.
 * - Select fields (`single_select`, `multi_select`) need options (at most `MAX_FIELD_OPTIONS`,
 *   names unique within the field); other data types take none. PATCH changes `name`,
 *   `description`, `visibility` and `options`; `data_type` is fixed at creation. Options sent in a
 *   PATCH replace the set: one with the `id` of an existing option keeps that option (its id and
 *   creation time), one without an id is new, and existing options left out are deleted.
 * - Options are kept and answered by `priority` (ties in the order sent).
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { notFound, pathId, readBody } from "../../core/http";
import { nodeId } from "../../core/render";
import { type Store, timestamp } from "../../core/store";
import {
  configOrg,
  ISSUE_COLORS,
  ISSUE_FIELD_DATA_TYPES,
  ISSUE_FIELD_VISIBILITIES,
  MAX_FIELD_OPTIONS,
  MAX_ISSUE_FIELDS,
  Problems,
  parseDescription,
  parseEnum,
  parseName,
  SELECT_DATA_TYPES,
  sameName,
} from "./config";
import type { IssueColor, IssueFieldDataType, StoredIssueField, StoredIssueFieldOption } from "./state";

const READ: AccessRule = { scopes: ["read:org"], permission: ["issue_fields", "read"] };
const WRITE: AccessRule = { scopes: ["admin:org"], permission: ["issue_fields", "write"] };

const R = ROUTES.issueFields;
const WHAT = "manage issue fields";

export function issueFieldRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const org = configOrg(c, "member", "read issue fields");
    return c.json(fieldsOf(c, org).map(renderIssueField));
  });

  app.post(R.create.pattern, guard(WRITE), async (c) => {
    const org = configOrg(c, "owner", WHAT);
    const body = await readBody(c);
    const existing = fieldsOf(c, org);
    const problems = new Problems();
    const name = parseName(problems, body.name, "name");
    if (name !== undefined) uniqueName(problems, existing, name, undefined);
    const description = parseDescription(problems, body.description, "description");
    const dataType = parseEnum(problems, body.data_type, "data_type", ISSUE_FIELD_DATA_TYPES);
    const visibility =
      body.visibility === undefined
        ? "organization_members_only"
        : parseEnum(problems, body.visibility, "visibility", ISSUE_FIELD_VISIBILITIES);
    const options = dataType && parseOptionsFor(problems, body.options, dataType, undefined);
    if (existing.length >= MAX_ISSUE_FIELDS) {
      problems.add(`an organization can have at most ${MAX_ISSUE_FIELDS} issue fields`);
    }
    problems.check();
    const store = c.get("store");
    const now = timestamp();
    const field: StoredIssueField = {
      id: store.nextId(),
      org: org.login,
      name: name as string,
      description: description ?? null,
      dataType: dataType as IssueFieldDataType,
      visibility: visibility as StoredIssueField["visibility"],
      options: buildOptions(store, options ?? [], [], now),
      createdAt: now,
      updatedAt: now,
    };
    store.state.issueFields.push(field);
    return c.json(renderIssueField(field), 200);
  });

  app.patch(R.update.pattern, guard(WRITE), async (c) => {
    const { org, field } = fieldContext(c);
    const body = await readBody(c);
    const problems = new Problems();
    const name = body.name === undefined ? undefined : parseName(problems, body.name, "name");
    if (name !== undefined) uniqueName(problems, fieldsOf(c, org), name, field);
    const description = parseDescription(problems, body.description, "description");
    const visibility =
      body.visibility === undefined
        ? undefined
        : parseEnum(problems, body.visibility, "visibility", ISSUE_FIELD_VISIBILITIES);
    if (body.data_type !== undefined && body.data_type !== field.dataType) {
      problems.add(`data_type cannot be changed after creation (this field is ${field.dataType})`);
    }
    const options =
      body.options === undefined ? undefined : parseOptionsFor(problems, body.options, field.dataType, field);
    problems.check();
    const before = JSON.stringify(renderIssueField(field));
    const now = timestamp();
    if (name !== undefined) field.name = name;
    if (description !== undefined) field.description = description;
    if (visibility !== undefined) field.visibility = visibility;
    if (options !== undefined) field.options = buildOptions(c.get("store"), options, field.options, now);
    if (JSON.stringify(renderIssueField(field)) !== before) field.updatedAt = now;
    return c.json(renderIssueField(field), 200);
  });

  app.delete(R.delete.pattern, guard(WRITE), (c) => {
    const { field } = fieldContext(c);
    const state = c.get("store").state;
    state.issueFields = state.issueFields.filter((f) => f.id !== field.id);
    return c.body(null, 204);
  });
}

export function renderIssueField(field: StoredIssueField): Record<string, unknown> {
  return {
    id: field.id,
    node_id: nodeId("IssueField", field.id),
    name: field.name,
    description: field.description,
    data_type: field.dataType,
    visibility: field.visibility,
    options: SELECT_DATA_TYPES.includes(field.dataType)
      ? field.options.map((o) => ({
          id: o.id,
          name: o.name,
          description: o.description,
          color: o.color,
          priority: o.priority,
          created_at: o.createdAt,
          updated_at: o.updatedAt,
        }))
      : null,
    created_at: field.createdAt,
    updated_at: field.updatedAt,
  };
}

function fieldsOf(c: Context<ServerEnv>, org: OrgRecord): StoredIssueField[] {
  return c.get("store").state.issueFields.filter((f) => f.org === org.login);
}

/** The field of the path, of an organisation the caller owns (404 when it has no such field). */
function fieldContext(c: Context<ServerEnv>): { org: OrgRecord; field: StoredIssueField } {
  const org = configOrg(c, "owner", WHAT);
  const id = pathId(c, "issue_field_id");
  const field = fieldsOf(c, org).find((f) => f.id === id);
  if (!field) throw notFound();
  return { org, field };
}

function uniqueName(
  problems: Problems,
  existing: readonly StoredIssueField[],
  name: string,
  current: StoredIssueField | undefined,
): void {
  if (existing.some((f) => f.id !== current?.id && sameName(f.name, name))) {
    problems.add(`name ${JSON.stringify(name)} has already been taken by another issue field`);
  }
}

/** One option as the body gives it, checked; `id` names the existing option it keeps. */
interface OptionInput {
  id: number | undefined;
  name: string;
  description: string | null;
  color: IssueColor;
  priority: number;
}

/**
 * The `options` of a body for a field of `dataType`: required (and non-empty) for select fields,
 * refused for the others (absent or null is accepted). `current` is the field being updated,
 * whose options an `id` may name.
 */
function parseOptionsFor(
  problems: Problems,
  raw: unknown,
  dataType: IssueFieldDataType,
  current: StoredIssueField | undefined,
): OptionInput[] | undefined {
  const select = SELECT_DATA_TYPES.includes(dataType);
  if (!select) {
    if (raw !== undefined && raw !== null) {
      problems.add(
        `options are only allowed for ${SELECT_DATA_TYPES.join(" and ")} fields (this field is ${dataType})`,
      );
    }
    return undefined;
  }
  if (raw === undefined || raw === null) {
    problems.add(`options is missing: ${dataType} fields need at least one option`);
    return undefined;
  }
  if (!Array.isArray(raw)) {
    problems.add("options must be an array of {name, description, color, priority}");
    return undefined;
  }
  if (raw.length === 0) problems.add(`options must hold at least one option for ${dataType} fields`);
  if (raw.length > MAX_FIELD_OPTIONS) {
    problems.add(`options has ${raw.length} items; at most ${MAX_FIELD_OPTIONS} are allowed`);
  }
  const parsed: OptionInput[] = [];
  const seenIds = new Set<number>();
  const names: string[] = [];
  raw.forEach((item: unknown, i) => {
    const at = `options[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.add(`${at} must be an object with name, color and priority`);
      return;
    }
    const option = item as Record<string, unknown>;
    const name = parseName(problems, option.name, `${at}.name`);
    const description = parseDescription(problems, option.description, `${at}.description`);
    const color = parseEnum(problems, option.color, `${at}.color`, ISSUE_COLORS);
    let priority: number | undefined;
    if (option.priority === undefined) problems.add(`${at}.priority is missing`);
    else if (!Number.isSafeInteger(option.priority)) problems.add(`${at}.priority must be an integer`);
    else priority = option.priority as number;
    let id: number | undefined;
    if (option.id !== undefined) {
      const known = current?.options.some((o) => o.id === option.id) ?? false;
      if (!known) {
        problems.add(
          current
            ? `${at}.id ${JSON.stringify(option.id)} names no option of this field; omit it for a new option`
            : `${at}.id is not allowed when creating a field`,
        );
      } else if (seenIds.has(option.id as number)) {
        problems.add(`${at}.id ${option.id} appears more than once`);
      } else {
        id = option.id as number;
        seenIds.add(id);
      }
    }
    if (name !== undefined && names.some((n) => sameName(n, name))) {
      problems.add(`${at}.name ${JSON.stringify(name)} is used by another option of this field`);
    }
    if (name !== undefined) names.push(name);
    if (name !== undefined && color !== undefined && priority !== undefined) {
      parsed.push({ id, name, description: description ?? null, color, priority });
    }
  });
  return parsed;
}

/**
 * The stored options for `inputs`, ordered by priority: an input naming an existing option keeps
 * its id and creation time (its update time moves only when it changes), the others are new.
 */
function buildOptions(
  store: Store,
  inputs: readonly OptionInput[],
  existing: readonly StoredIssueFieldOption[],
  now: string,
): StoredIssueFieldOption[] {
  const options = inputs.map((input): StoredIssueFieldOption => {
    const { id, ...settings } = input;
    const old = id === undefined ? undefined : existing.find((o) => o.id === id);
    if (!old) return { id: store.nextId(), ...settings, createdAt: now, updatedAt: now };
    const same =
      old.name === settings.name &&
      old.description === settings.description &&
      old.color === settings.color &&
      old.priority === settings.priority;
    return { ...old, ...settings, updatedAt: same ? old.updatedAt : now };
  });
  // A stable sort: options of equal priority stay in the order sent.
  return options.sort((a, b) => a.priority - b.priority);
}
