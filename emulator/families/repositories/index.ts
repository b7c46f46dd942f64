/**
 * Repositories (docs/sandbox.md, "Repositories"): made, changed, renamed with a redirect from the
 * old name, archived, deleted; their topics and deploy keys. The repositories are the world's
 * (`fixture.repos`), so every family finds one made through the API.
 */
import type { Family } from "../../core/family";
import { orgLoginsOf } from "../../core/org-logins";
import { deployKeyRoutes } from "./deploy-keys";
import { repositoryRoutes } from "./routes";
import { repositoryState } from "./state";

export const repositories = {
  name: "repositories",
  state: repositoryState,
  routes: (api) => {
    repositoryRoutes(api);
    deployKeyRoutes(api);
  },
  orgLogins: [orgLoginsOf("repositoryRedirects", "owner", "renamed repositories' old owner")],
} satisfies Family;
