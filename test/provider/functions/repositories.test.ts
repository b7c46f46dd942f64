/** getRepository against the sandbox: the ids other kinds take, the 301 of a renamed repository, the Output form. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getRepository, getRepositoryOutput } from "../../../provider/functions/repositories";
import { api } from "../resources/helpers";
import { counts, settle, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const GET = "GET /repos/{owner}/{repo}";

describe("getRepository", () => {
  it("reads a repository's id, names, visibility and default branch", async () => {
    const repo = await getRepository({ owner: "acme-eng", repository: "api" });
    expect(repo).toMatchObject({
      owner: "acme-eng",
      repository: "api",
      id: 1000,
      name: "api",
      fullName: "acme-eng/api",
      visibility: "private",
      private: true,
      archived: false,
      defaultBranch: "main",
      topics: [],
      renamed: false,
    });
    expect(repo.description).toBeUndefined();
    expect(repo.cloneUrl).toBe(`${emulator.origin}/acme-eng/api.git`);
    expect(counts(emulator)[GET]).toBe(1);
  });

  it("follows a rename from the old name and says so", async () => {
    await api(emulator, "POST", "/orgs/acme-eng/repos", { name: "svc", description: "The service" });
    await api(emulator, "PATCH", "/repos/acme-eng/svc", { name: "service" });
    const repo = await getRepository({ owner: "acme-eng", repository: "svc" });
    expect(repo).toMatchObject({
      repository: "svc",
      name: "service",
      renamed: true,
      description: "The service",
    });
  });

  it("refuses bad arguments before any request, and names a repository the token cannot see", async () => {
    await expect(getRepository({ owner: "acme-eng" } as never)).rejects.toThrow("repository is required");
    await expect(getRepository({ owner: "acme-eng", repository: "a/b" })).rejects.toThrow("may hold only");
    expect(counts(emulator)[GET]).toBeUndefined();
    useEnvironmentToken(emulator, "svcp_noscopes");
    await expect(getRepository({ owner: "acme-eng", repository: "api" })).rejects.toThrow(/404/);
  });

  it("is secret in its Output form when an input is", async () => {
    const secret = await settle(getRepositoryOutput({ owner: "acme-eng", repository: pulumi.secret("web") }));
    expect(secret).toMatchObject({ secret: true, value: { id: 1001, visibility: "public" } });
  });
});
