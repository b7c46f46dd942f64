/**
 * An organisation's issue fields (spec, permission matrix "Issue fields"; bodies, statuses and
 * enums from the platform's description): data types, options of select fields and their
 * replacement on PATCH, uniqueness, limits, who may, and 422s that change nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_FIELD_OPTIONS, MAX_ISSUE_FIELDS } from "../../../../emulator/families/org-config/config";
import { startEmulator } from "../../../../emulator/index";
import {
  type ApiResponse,
  call,
  expectErrorBody,
  type Json,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const F = "/orgs/acme-eng/issue-fields";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const PRIORITY = {
  name: "Priority",
  description: "Level of importance",
  data_type: "single_select",
  options: [
    { name: "High", description: "High priority", color: "red", priority: 1 },
    { name: "Medium", color: "yellow", priority: 2 },
    { name: "Low", description: null, color: "green", priority: 3 },
  ],
};

async function create(body: Record<string, unknown> = PRIORITY, org = "acme-eng"): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", `/orgs/${org}/issue-fields`, { body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function list(org = "acme-eng", token: string = TOKENS.siteAdmin): Promise<Json[]> {
  const response = await call(sandbox.emulator, "GET", `/orgs/${org}/issue-fields`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function patch(id: number, body: Record<string, unknown>): Promise<ApiResponse> {
  return call(sandbox.emulator, "PATCH", `${F}/${id}`, { body });
}

/** A 422 of the description's `validation-error-simple`: `errors` are strings. */
function expectInvalid(response: ApiResponse, ...messages: RegExp[]): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  expect(response.body.errors).toHaveLength(messages.length);
  for (const message of messages) {
    expect(response.body.errors).toContainEqual(expect.stringMatching(message));
  }
}

/** Runs `attempt` and checks it changed nothing of the state. */
async function unchanged(attempt: () => Promise<void>): Promise<void> {
  const before = await stateOf(sandbox.emulator);
  await attempt();
  expect(await stateOf(sandbox.emulator)).toEqual(before);
}

describe("creating", () => {
  it("starts with no issue fields", async () => {
    for (const org of ["acme-eng", "acme-ops", "solo"]) expect(await list(org)).toEqual([]);
  });

  it("answers 200 with a select field and its options as the description shapes them", async () => {
    const field = await create();
    expect(field).toEqual({
      id: expect.any(Number),
      node_id: expect.any(String),
      name: "Priority",
      description: "Level of importance",
      data_type: "single_select",
      visibility: "organization_members_only",
      options: [
        {
          id: expect.any(Number),
          name: "High",
          description: "High priority",
          color: "red",
          priority: 1,
          created_at: field.created_at,
          updated_at: field.created_at,
        },
        expect.objectContaining({ name: "Medium", description: null, color: "yellow", priority: 2 }),
        expect.objectContaining({ name: "Low", description: null, color: "green", priority: 3 }),
      ],
      created_at: expect.stringMatching(ISO),
      updated_at: field.created_at,
    });
    expect(new Set(field.options.map((o: Json) => o.id)).size).toBe(3);
    expect(await list()).toEqual([field]);
  });

  it("creates fields of every data type; only select fields have options", async () => {
    for (const dataType of ["text", "date", "number"]) {
      const field = await create({ name: dataType, data_type: dataType, visibility: "all" });
      expect(field).toMatchObject({
        data_type: dataType,
        options: null,
        visibility: "all",
        description: null,
      });
    }
    const multi = await create({ ...PRIORITY, name: "Labels", data_type: "multi_select" });
    expect(multi.options).toHaveLength(3);
  });

  it("orders options by priority, ties in the order sent", async () => {
    const field = await create({
      name: "Size",
      data_type: "single_select",
      options: [
        { name: "L", color: "red", priority: 3 },
        { name: "S", color: "green", priority: 1 },
        { name: "M", color: "blue", priority: 1 },
      ],
    });
    expect(field.options.map((o: Json) => o.name)).toEqual(["S", "M", "L"]);
  });

  it("refuses a name already taken in the organisation, whatever its case; another may use it", async () => {
    await create();
    await unchanged(async () =>
      expectInvalid(
        await call(sandbox.emulator, "POST", F, { body: { name: "priority", data_type: "text" } }),
        /^name "priority" has already been taken/,
      ),
    );
    await create({ name: "priority", data_type: "text" }, "solo");
  });

  it("names every problem of a body at once, and creates nothing", async () => {
    await unchanged(async () => {
      expectInvalid(
        await call(sandbox.emulator, "POST", F, { body: { description: [], visibility: "public" } }),
        /^name is missing$/,
        /^description must be a string or null$/,
        /^data_type is missing \(one of text, date, single_select, multi_select, number\)$/,
        /^visibility must be one of organization_members_only, all$/,
      );
      expectInvalid(
        await call(sandbox.emulator, "POST", F, { body: { name: "X", data_type: "checkbox" } }),
        /^data_type must be one of text, date, single_select, multi_select, number$/,
      );
    });
  });

  it("needs options for select fields and refuses them for the others", async () => {
    await unchanged(async () => {
      expectInvalid(
        await call(sandbox.emulator, "POST", F, { body: { name: "X", data_type: "single_select" } }),
        /^options is missing: single_select fields need at least one option$/,
      );
      expectInvalid(
        await call(sandbox.emulator, "POST", F, {
          body: { name: "X", data_type: "multi_select", options: [] },
        }),
        /^options must hold at least one option/,
      );
      expectInvalid(
        await call(sandbox.emulator, "POST", F, {
          body: { name: "X", data_type: "single_select", options: {} },
        }),
        /^options must be an array/,
      );
      expectInvalid(
        await call(sandbox.emulator, "POST", F, {
          body: { name: "X", data_type: "text", options: PRIORITY.options },
        }),
        /^options are only allowed for single_select and multi_select fields \(this field is text\)$/,
      );
    });
    // null options on a text field mean none.
    expect((await create({ name: "Notes", data_type: "text", options: null })).options).toBeNull();
  });

  it("checks each option: name, color and priority required, names unique within the field", async () => {
    await unchanged(async () =>
      expectInvalid(
        await call(sandbox.emulator, "POST", F, {
          body: {
            name: "X",
            data_type: "single_select",
            options: [
              { name: "A", color: "red", priority: 1 },
              { name: "a", color: "blue", priority: 2 },
              { color: "teal", priority: 1.5 },
              "B",
              { name: "C", description: 3, id: 7 },
            ],
          },
        }),
        /^options\[1\]\.name "a" is used by another option of this field$/,
        /^options\[2\]\.name is missing$/,
        /^options\[2\]\.color must be one of gray, blue, green, yellow, orange, red, pink, purple$/,
        /^options\[2\]\.priority must be an integer$/,
        /^options\[3\] must be an object with name, color and priority$/,
        /^options\[4\]\.description must be a string or null$/,
        /^options\[4\]\.color is missing/,
        /^options\[4\]\.priority is missing$/,
        /^options\[4\]\.id is not allowed when creating a field$/,
      ),
    );
  });

  it(`takes at most ${MAX_FIELD_OPTIONS} options`, async () => {
    const options = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `O${i}`, color: "gray", priority: i }));
    await unchanged(async () =>
      expectInvalid(
        await call(sandbox.emulator, "POST", F, {
          body: { name: "Many", data_type: "multi_select", options: options(MAX_FIELD_OPTIONS + 1) },
        }),
        /^options has 101 items; at most 100 are allowed$/,
      ),
    );
    expect(
      (await create({ name: "Many", data_type: "multi_select", options: options(100) })).options,
    ).toHaveLength(100);
  });

  it(`holds at most ${MAX_ISSUE_FIELDS} fields per organisation`, async () => {
    for (let i = 0; i < MAX_ISSUE_FIELDS; i++) await create({ name: `Field ${i}`, data_type: "text" });
    await unchanged(async () =>
      expectInvalid(
        await call(sandbox.emulator, "POST", F, { body: { name: "One more", data_type: "text" } }),
        /at most 25 issue fields/,
      ),
    );
    await create({ name: "Elsewhere", data_type: "text" }, "acme-ops");
  });
});

describe("updating", () => {
  it("changes name, description and visibility; omitted fields stay", async () => {
    const field = await create();
    const response = await patch(field.id, { name: "Urgency", visibility: "all" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      id: field.id,
      name: "Urgency",
      description: "Level of importance",
      visibility: "all",
      options: field.options,
      created_at: field.created_at,
    });
    const cleared = await patch(field.id, { description: null });
    expect(cleared.body.description).toBeNull();
    expect(await list()).toEqual([cleared.body]);
  });

  it("answers an empty PATCH with the field unchanged", async () => {
    const field = await create();
    await unchanged(async () => {
      const response = await patch(field.id, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual(field);
    });
  });

  it("replaces the options: an id keeps its option, no id makes a new one, the rest are deleted", async () => {
    const field = await create();
    const [high, medium] = field.options;
    const response = await patch(field.id, {
      options: [
        { id: medium.id, name: "Normal", color: "blue", priority: 2 },
        { id: high.id, name: "High", description: "High priority", color: "red", priority: 1 },
        { name: "Critical", color: "purple", priority: 0 },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const options = response.body.options;
    expect(options.map((o: Json) => o.name)).toEqual(["Critical", "High", "Normal"]);
    const [critical, keptHigh, normal] = options;
    expect(keptHigh).toEqual(high);
    expect(normal).toMatchObject({
      id: medium.id,
      created_at: medium.created_at,
      color: "blue",
      description: null,
    });
    expect([high.id, medium.id, field.options[2].id]).not.toContain(critical.id);
    expect(await list()).toEqual([response.body]);
  });

  it("refuses options that name no option of the field, or one twice, changing nothing", async () => {
    const field = await create();
    const other = await create({ ...PRIORITY, name: "Other" });
    const [high] = field.options;
    await unchanged(async () =>
      expectInvalid(
        await patch(field.id, {
          options: [
            { id: other.options[0].id, name: "A", color: "red", priority: 1 },
            { id: high.id, name: "B", color: "red", priority: 2 },
            { id: high.id, name: "C", color: "red", priority: 3 },
          ],
        }),
        /^options\[0\]\.id \d+ names no option of this field; omit it for a new option$/,
        /^options\[2\]\.id \d+ appears more than once$/,
      ),
    );
  });

  it("refuses removing every option of a select field, and options on other fields", async () => {
    const field = await create();
    const text = await create({ name: "Notes", data_type: "text" });
    await unchanged(async () => {
      expectInvalid(await patch(field.id, { options: [] }), /^options must hold at least one option/);
      expectInvalid(await patch(field.id, { options: null }), /^options is missing/);
      expectInvalid(
        await patch(text.id, { options: [{ name: "A", color: "red", priority: 1 }] }),
        /^options are only allowed for single_select and multi_select fields/,
      );
    });
  });

  it("keeps data_type: the same value passes, another is a 422", async () => {
    const field = await create();
    expect((await patch(field.id, { data_type: "single_select", name: "P" })).status).toBe(200);
    await unchanged(async () =>
      expectInvalid(
        await patch(field.id, { data_type: "multi_select" }),
        /^data_type cannot be changed after creation \(this field is single_select\)$/,
      ),
    );
  });

  it("refuses another field's name and lets a field keep its own", async () => {
    const field = await create();
    await create({ name: "Notes", data_type: "text" });
    await unchanged(async () =>
      expectInvalid(await patch(field.id, { name: "NOTES" }), /^name "NOTES" has already been taken/),
    );
    expect((await patch(field.id, { name: "PRIORITY" })).body.name).toBe("PRIORITY");
  });
});

describe("deleting", () => {
  it("answers 204 and removes the field; then it is a 404", async () => {
    const field = await create();
    const kept = await create({ name: "Notes", data_type: "text" });
    const response = await call(sandbox.emulator, "DELETE", `${F}/${field.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await list()).toEqual([kept]);
    expect((await call(sandbox.emulator, "DELETE", `${F}/${field.id}`)).status).toBe(404);
    expect((await patch(field.id, { name: "X" })).status).toBe(404);
  });
});

describe("not found and who may", () => {
  it("answers 404 for an unknown organisation, an unknown id or another organisation's field", async () => {
    const field = await create();
    for (const [method, path] of [
      ["GET", "/orgs/nowhere/issue-fields"],
      ["POST", "/orgs/nowhere/issue-fields"],
      ["PATCH", `${F}/999999`],
      ["PATCH", `/orgs/solo/issue-fields/${field.id}`],
      ["DELETE", `/orgs/acme-ops/issue-fields/${field.id}`],
      ["DELETE", `${F}/-1`],
    ] as const) {
      const response = await call(
        sandbox.emulator,
        method,
        path,
        method === "GET" ? {} : { body: { name: "X" } },
      );
      expect(response.status, `${method} ${path}`).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
  });

  it("lets members read; writes are for owners, and a refusal changes nothing", async () => {
    const field = await create();
    expect(await list("acme-eng", TOKENS.member)).toEqual([field]);
    const outsider = await call(sandbox.emulator, "GET", "/orgs/solo/issue-fields", { token: TOKENS.member });
    expect(outsider.status).toBe(403);
    expectErrorBody(outsider.body, "Must be a member of the organization to read issue fields");
    await unchanged(async () => {
      for (const [method, path, token] of [
        ["POST", F, TOKENS.member],
        ["PATCH", `${F}/${field.id}`, TOKENS.member],
        ["DELETE", `${F}/${field.id}`, TOKENS.install],
        ["POST", "/orgs/solo/issue-fields", TOKENS.owner],
      ] as const) {
        const response = await call(sandbox.emulator, method, path, {
          token,
          body: { name: "X", data_type: "text" },
        });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.headers.get("x-accepted-service-permissions")).toBe("issue_fields=write");
      }
    });
    const fineGrained = await call(sandbox.emulator, "POST", "/orgs/solo/issue-fields", {
      token: TOKENS.fineGrained,
      body: { name: "X", data_type: "date" },
    });
    expect(fineGrained.status).toBe(200);
  });
});

describe("persistence", () => {
  it("keeps fields, replaced options and blocks across a restart with a data file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hosting-emulator-org-config-"));
    const data = join(dir, "state.db");
    try {
      let server = await startEmulator({ port: 0, data });
      const created = await call(server, "POST", F, { body: PRIORITY });
      expect(created.status, created.text).toBe(200);
      const [high] = created.body.options;
      const patched = await call(server, "PATCH", `${F}/${created.body.id}`, {
        body: { options: [high, { name: "Later", color: "gray", priority: 9 }] },
      });
      expect(patched.status, patched.text).toBe(200);
      expect((await call(server, "PUT", "/orgs/acme-eng/blocks/mona")).status).toBe(204);
      await server.close();
      server = await startEmulator({ port: 0, data });
      try {
        const fields = await call(server, "GET", F);
        expect(fields.body).toEqual([patched.body]);
        expect((await call(server, "GET", "/orgs/acme-eng/blocks/mona")).status).toBe(204);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
