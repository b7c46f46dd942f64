/**
 * An organisation's repository property definitions: the fixture's (cost_center, tier), creating
 * and replacing one with PUT, the values a definition takes at once, values removed with the
 * definition (or with an allowed value), and 422s naming their field.
 */
import { describe, expect, it } from "vitest";
import { call, expectValidationFailed, type Json, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();
const SCHEMA = "/orgs/acme-eng/properties/schema";
const VALUES = "/repos/acme-eng/api/properties/values";

const ENVIRONMENT = {
  value_type: "single_select",
  required: true,
  default_value: "dev",
  description: "Where it runs",
  allowed_values: ["prod", "dev"],
  values_editable_by: "org_and_repo_actors",
};

async function setValue(name: string, value: unknown): Promise<number> {
  return (
    await call(sandbox.emulator, "PATCH", VALUES, { body: { properties: [{ property_name: name, value }] } })
  ).status;
}

async function values(): Promise<Json[]> {
  return (await call(sandbox.emulator, "GET", VALUES)).body;
}

describe("property definitions", () => {
  it("list the fixture's definitions to the organisation's members", async () => {
    const response = await call(sandbox.emulator, "GET", SCHEMA, { token: TOKENS.member });
    expect(response.status).toBe(200);
    expect(response.body.map((d: Json) => d.property_name)).toEqual(["cost_center", "tier"]);
    expect(response.body[1]).toMatchObject({
      value_type: "single_select",
      allowed_values: ["gold", "silver", "bronze"],
      required: false,
      default_value: null,
      source_type: "organization",
      values_editable_by: "org_actors",
    });
  });

  it("are created by PUT (200), read back, and take values at once", async () => {
    expect(await setValue("environment", "prod")).toBe(422);
    const made = await call(sandbox.emulator, "PUT", `${SCHEMA}/environment`, { body: ENVIRONMENT });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ property_name: "environment", ...ENVIRONMENT });
    expect((await call(sandbox.emulator, "GET", `${SCHEMA}/environment`)).body).toEqual(made.body);
    expect(await setValue("environment", "prod")).toBe(204);
    expect(await setValue("environment", "staging")).toBe(422);
  });

  it("take true/false properties, whose values are the strings true and false", async () => {
    const made = await call(sandbox.emulator, "PUT", `${SCHEMA}/archived_ok`, {
      body: { value_type: "true_false" },
    });
    expect(made.status, made.text).toBe(200);
    expect(await setValue("archived_ok", "true")).toBe(204);
    expect(await setValue("archived_ok", "yes")).toBe(422);
  });

  it("remove their values when deleted, and values a new definition refuses", async () => {
    expect(await setValue("tier", "gold")).toBe(204);
    const narrowed = await call(sandbox.emulator, "PUT", `${SCHEMA}/tier`, {
      body: { value_type: "single_select", allowed_values: ["silver", "bronze"] },
    });
    expect(narrowed.status).toBe(200);
    expect(await values()).toEqual([]);
    expect(await setValue("tier", "silver")).toBe(204);
    expect(await setValue("cost_center", "cc-1")).toBe(204);
    expect((await call(sandbox.emulator, "DELETE", `${SCHEMA}/tier`)).status).toBe(204);
    expect(await values()).toEqual([{ property_name: "cost_center", value: "cc-1" }]);
    expect((await call(sandbox.emulator, "GET", `${SCHEMA}/tier`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${SCHEMA}/tier`)).status).toBe(404);
  });

  it.each([
    [{ ...ENVIRONMENT, value_type: undefined }, "value_type", "missing_field"],
    [{ ...ENVIRONMENT, allowed_values: null }, "allowed_values", "invalid"],
    [{ value_type: "string", allowed_values: ["a"] }, "allowed_values", "invalid"],
    [{ ...ENVIRONMENT, default_value: "staging" }, "default_value", "invalid"],
    [{ ...ENVIRONMENT, default_value: null }, "default_value", "invalid"],
    [{ ...ENVIRONMENT, allowed_values: ["a", "a"] }, "allowed_values", "invalid"],
    [{ ...ENVIRONMENT, values_editable_by: "anyone" }, "values_editable_by", "invalid"],
  ])("refuse %j with a 422 naming %s", async (body, field, code) => {
    expectValidationFailed(
      await call(sandbox.emulator, "PUT", `${SCHEMA}/environment`, { body }),
      field,
      code,
      "CustomProperty",
    );
    expect((await call(sandbox.emulator, "GET", `${SCHEMA}/environment`)).status).toBe(404);
  });

  it("are written by owners only", async () => {
    const response = await call(sandbox.emulator, "PUT", `${SCHEMA}/environment`, {
      token: TOKENS.member,
      body: ENVIRONMENT,
    });
    expect(response.status).toBe(403);
  });
});
