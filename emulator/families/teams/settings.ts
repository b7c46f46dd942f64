/**
 * The body of a team's create and update, read and checked against the organisation's teams: a
 * name whose slug is free, privacy and notification setting from their enums, a parent of the
 * same organisation that is not the team itself nor below it, and nesting only between closed
 * teams (a nested team must be closed, and so must its parent). Each problem is a 422 naming the
 * field, as the platform answers.
 */
import {
  TEAM_NOTIFICATION_SETTINGS,
  TEAM_PRIVACIES,
  type TeamNotificationSetting,
  type TeamPrivacy,
} from "../../../api";
import type { OrgRecord } from "../../core/fixture";
import { invalidField, missingField } from "../../core/http";
import type { EmulatorState } from "../../core/store";
import type { StoredTeam } from "./state";
import { descendantsOf, slugOf, teamById, teamsOf } from "./teams";

const RESOURCE = "Team";
/** The longest team name the sandbox takes. */
export const TEAM_NAME_MAX = 255;
/** The closing-down `permission` of a team: what repositories added without one get. */
const TEAM_PERMISSIONS = ["pull", "push", "admin"] as const;

export interface TeamSettings {
  name?: string;
  description?: string | null;
  privacy?: TeamPrivacy;
  notificationSetting?: TeamNotificationSetting;
  permission?: (typeof TEAM_PERMISSIONS)[number];
  /** null: no parent (an update removes it); undefined: not in the body. */
  parentId?: number | null;
}

function choice<T extends string>(
  body: Record<string, unknown>,
  field: string,
  allowed: readonly T[],
): T | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw invalidField(RESOURCE, field, `${field} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}

/** Reads the fields of a create (`current` undefined) or an update of `current`. */
export function parseTeamSettings(
  state: EmulatorState,
  org: OrgRecord,
  body: Record<string, unknown>,
  current: StoredTeam | undefined,
): TeamSettings {
  const settings: TeamSettings = {};
  if (body.name !== undefined || current === undefined) {
    if (body.name === undefined) throw missingField(RESOURCE, "name");
    if (typeof body.name !== "string" || body.name.trim() === "") {
      throw invalidField(RESOURCE, "name", "name must be a non-empty string");
    }
    const name = body.name.trim();
    if (name.length > TEAM_NAME_MAX) {
      throw invalidField(RESOURCE, "name", `name must be at most ${TEAM_NAME_MAX} characters`);
    }
    const slug = slugOf(name);
    if (slug === "") throw invalidField(RESOURCE, "name", "name must hold at least one letter or digit");
    const taken = teamsOf(state, org).find(
      (t) => t.id !== current?.id && (t.name.toLowerCase() === name.toLowerCase() || t.slug === slug),
    );
    if (taken) throw invalidField(RESOURCE, "name", "Name must be unique for this org");
    settings.name = name;
  }
  if (body.description !== undefined) {
    if (body.description !== null && typeof body.description !== "string") {
      throw invalidField(RESOURCE, "description", "description must be a string");
    }
    settings.description = body.description === "" ? null : body.description;
  }
  const privacy = choice(body, "privacy", TEAM_PRIVACIES);
  if (privacy) settings.privacy = privacy;
  const notifications = choice(body, "notification_setting", TEAM_NOTIFICATION_SETTINGS);
  if (notifications) settings.notificationSetting = notifications;
  const permission = choice(body, "permission", TEAM_PERMISSIONS);
  if (permission) settings.permission = permission;
  if (body.parent_team_id !== undefined) {
    settings.parentId = parentOf(state, org, body.parent_team_id, current);
  }
  checkNesting(state, settings, current);
  return settings;
}

function parentOf(
  state: EmulatorState,
  org: OrgRecord,
  value: unknown,
  current: StoredTeam | undefined,
): number | null {
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw invalidField(RESOURCE, "parent_team_id", "parent_team_id must be a team's id or null");
  }
  const parent = teamById(state, value);
  if (!parent || parent.orgId !== org.id) {
    throw invalidField(RESOURCE, "parent_team_id", `${org.login} has no team with id ${value}`);
  }
  if (current && (parent.id === current.id || descendantsOf(state, current).includes(parent))) {
    throw invalidField(
      RESOURCE,
      "parent_team_id",
      "A team cannot be nested under itself or under one of its own child teams",
    );
  }
  return parent.id;
}

/**
 * Nesting between closed teams only: the privacy a nested team would end with must be `closed`
 * (a new nested team defaults to it), its parent must be closed, and a team with children cannot
 * become secret.
 */
function checkNesting(state: EmulatorState, settings: TeamSettings, current: StoredTeam | undefined): void {
  const parentId = settings.parentId === undefined ? (current?.parentId ?? null) : settings.parentId;
  if (parentId !== null) {
    const privacy = settings.privacy ?? (current === undefined ? "closed" : current.privacy);
    if (privacy === "secret") {
      throw invalidField(
        RESOURCE,
        "privacy",
        "A nested team must be closed: secret teams cannot have a parent",
      );
    }
    if (teamById(state, parentId)?.privacy === "secret") {
      throw invalidField(
        RESOURCE,
        "parent_team_id",
        "The parent team is secret: only closed teams can have child teams",
      );
    }
  }
  if (current && settings.privacy === "secret" && state.teams.some((t) => t.parentId === current.id)) {
    throw invalidField(RESOURCE, "privacy", "A team with child teams must be closed");
  }
}
