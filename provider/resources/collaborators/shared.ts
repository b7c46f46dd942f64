/**
 * What the kinds that give access to a repository share (a collaborator's role, a team's): the
 * five roles as an argument, and a role read back that is none of them refused with a clear error.
 */
import { z } from "zod";
import { REPOSITORY_PERMISSIONS, type RepositoryPermission } from "../../../api/collaborators";
import { unknownValueError } from "../../client/errors";
import { field } from "../../internal/declare";

export type { RepositoryPermission };

/** The role enum, for the fields of nested objects. */
export const permissionSchema = (label: string) =>
  z.enum(REPOSITORY_PERMISSIONS, { error: `${label} must be one of ${REPOSITORY_PERMISSIONS.join(", ")}` });

/** `permission` of a collaborator (default `push`) or a team (default `pull`). */
export const permissionField = (byDefault: RepositoryPermission, who: "collaborator" | "team") =>
  field(permissionSchema("permission").default(byDefault), {
    description: `The ${who}'s role on the repository: \`"pull"\` (read), \`"triage"\`, \`"push"\` (write), \`"maintain"\` or \`"admin"\`. Default \`"${byDefault}"\`. Updates in place; a role changed outside Pulumi shows as drift.`,
  });

/**
 * A role read back, which must be one of the five (the platform's custom repository roles are not
 * managed here): the error names the object and what the API answered.
 */
export function roleOf(
  kind: string,
  role: RepositoryPermission | undefined,
  answer: { role_name?: unknown; permissions?: unknown },
): RepositoryPermission {
  if (role !== undefined) return role;
  throw unknownValueError(`${kind}'s role`, "role_name", answer.role_name ?? answer.permissions ?? null);
}
