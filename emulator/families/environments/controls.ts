/**
 * The environments family's controls: what happens on the platform outside the API. A workflow job
 * that names an environment the repository does not have creates it, with no protection (the
 * platform does so by itself), which a program declaring that environment then adopts.
 */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import { notFound } from "../../core/http";
import { findRepo } from "../../core/lookup";
import { findEnvironment, putEnvironment, renderEnvironment } from "./environments";

export function environmentControls(app: Hono<ServerEnv>): void {
  app.post("/repos/:owner/:repo/environments/:environment_name/workflow-job", (c) => {
    const store = c.get("store");
    const repo = findRepo(store.state, c.req.param("owner"), c.req.param("repo"));
    if (!repo) throw notFound();
    const name = c.req.param("environment_name");
    const known = findEnvironment(store.state, repo, name);
    const environment = known ?? putEnvironment(store, repo, name, {}).environment;
    return c.json(renderEnvironment(c, store.state, repo, environment), known ? 200 : 201);
  });
}
