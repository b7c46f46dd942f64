/**
 * Enterprise organisation administration (spec, endpoints): a site administrator's classic token
 * creates organisations (201) and renames them (202, the rename done by a queued job: jobs.ts);
 * anyone else gets a 404 (Authentication 6), fine-grained and app tokens included (5).
 */
import type { Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, APP_TOKENS } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { invalidField, missingField, notFound, readBody, urlOf, validationFailed } from "../../core/http";
import { scheduleJob } from "../../core/jobs";
import { LINKS } from "../../core/links";
import { findOrg, findUser } from "../../core/lookup";
import { orgSummary } from "../../core/render";
import { defaultRunnerGroup, newGroupId } from "../runner-groups/state";
import { checkLogin, pendingRename, RENAME_JOB, RENAME_MESSAGE } from "./rename";

const SITE_ADMIN: AccessRule = { siteAdmin: true, refuse: ["fine_grained", ...APP_TOKENS] };
const RESOURCE = "Organization";

export function orgAdminRoutes(app: Hono<ServerEnv>): void {
  app.post(ROUTES.orgAdmin.create.pattern, guard(SITE_ADMIN), async (c) => {
    const store = c.get("store");
    const state = store.state;
    const body = await readBody(c);
    const login = checkLogin(store, body.login);
    if (body.admin === undefined || body.admin === null || body.admin === "")
      throw missingField(RESOURCE, "admin");
    const admin = typeof body.admin === "string" ? findUser(state, body.admin) : undefined;
    if (!admin)
      throw invalidField(
        RESOURCE,
        "admin",
        `admin must be the login of an existing user; got ${JSON.stringify(body.admin)}`,
      );
    if (body.profile_name !== undefined && typeof body.profile_name !== "string") {
      throw invalidField(RESOURCE, "profile_name", "profile_name must be a string");
    }
    // A self-managed installation has one enterprise, which every organisation belongs to.
    const enterprise = state.fixture.enterprises[0]?.slug;
    const org: OrgRecord = {
      id: state.fixture.orgs.reduce((max, o) => Math.max(max, o.id), 0) + 1,
      login,
      description: "",
      enterprise,
      members: { [admin.login]: { role: "admin", state: "active" } },
      repositoryProperties: [],
      ...(typeof body.profile_name === "string" ? { profileName: body.profile_name } : {}),
    };
    state.fixture.orgs.push(org);
    // Like the fixture's organisations (seedRunnerGroups): a default runner group from the start.
    state.runnerGroups.push(defaultRunnerGroup(newGroupId(store.state), "org", login));
    return c.json(orgSummary(c, org), 201);
  });

  app.patch(ROUTES.orgAdmin.rename.pattern, guard(SITE_ADMIN), async (c) => {
    const store = c.get("store");
    const org = findOrg(store.state, c.req.param("org") ?? "");
    if (!org) throw notFound();
    const body = await readBody(c);
    if (pendingRename(store, org)) {
      throw validationFailed({
        resource: RESOURCE,
        field: "login",
        code: "unprocessable",
        message: `a rename of ${org.login} is already in progress`,
      });
    }
    const login = checkLogin(store, body.login, org);
    scheduleJob(store, c.get("controls"), RENAME_JOB, { orgId: org.id, to: login });
    return c.json({ message: RENAME_MESSAGE, url: urlOf(c, LINKS.orgById, { org_id: org.id }) }, 202);
  });
}
