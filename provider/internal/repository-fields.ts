/**
 * The fields that name a repository, declared once for every kind that lives under one (webhooks,
 * protection rules, property values): both replace the object, since it cannot move to another
 * repository.
 */
import { fields } from "./check";
import { field } from "./declare";

/** `owner` and `repository`; `what` names the object a change replaces ("webhook", "rule"). */
export function repositoryFields(what: string, owner = "The organisation or user owning the repository") {
  return {
    owner: field(fields.name("owner"), {
      description: `${owner}. A change replaces the ${what}.`,
      replace: true,
    }),
    repository: field(fields.name("repository"), {
      description: `The repository name (without \`.git\`). A change replaces the ${what}.`,
      replace: true,
    }),
  };
}
