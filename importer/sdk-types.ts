/**
 * What the writers of typed languages (Python, Go) need beyond the inventory: each argument's type
 * as `schema.json` gives it, which is what the SDKs were generated from (a nested object is a named
 * type with an `...Args` class; Go needs to know an integer from a number), and the names Pulumi's
 * generators give arguments, resources and types in each language.
 */
import { packageSchema } from "../provider/plugin/package";

/**
 * An enum type of the schema (`OrgMembershipRole`): its values, each with the name the SDKs derive
 * their constants from (`admin` -> `Admin`: Go's `OrgMembershipRoleAdmin`, Python's
 * `OrgMembershipRole.ADMIN`).
 */
export interface EnumShape {
  type: string;
  names: Readonly<Record<string, string>>;
}

/**
 * An argument's type: a scalar (a string possibly of an enum type, which also takes any string), a
 * list, a named object type, a map of names to values (a rule's parameters), or one of several (a
 * property's value).
 */
export type Shape =
  | { scalar: "string"; enum?: EnumShape }
  | { scalar: "integer" | "number" | "boolean" }
  | { list: Shape }
  | { object: string; fields: Record<string, Shape> }
  | { map: Shape }
  | { oneOf: Shape[] }
  | { any: true };

interface SchemaProperty {
  type?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  $ref?: string;
  oneOf?: SchemaProperty[];
}

interface PackageSchema {
  resources: Record<string, { inputProperties: Record<string, SchemaProperty> }>;
  functions?: Record<string, { inputs: { properties: Record<string, SchemaProperty> } }>;
  types: Record<
    string,
    {
      type?: string;
      properties?: Record<string, SchemaProperty>;
      enum?: Array<{ value: string; name?: string }>;
    }
  >;
}

const TYPE_REF = "#/types/hosting:index:";

let parsed: PackageSchema | undefined;
/** A schema given in place of the package's schema.json, while `withSchema` runs. */
let given: PackageSchema | undefined;
const schema = (): PackageSchema => {
  if (given !== undefined) return given;
  parsed ??= JSON.parse(packageSchema()) as PackageSchema;
  return parsed;
};

/**
 * Runs `write` with the types of `replacement` in place of schema.json's: the reference pages are
 * written with the writers while schema.json itself is being generated, so from the schema that
 * will be written, not the one on disk.
 */
export function withSchema<T>(replacement: object, write: () => T): T {
  const before = given;
  given = replacement as PackageSchema;
  try {
    return write();
  } finally {
    given = before;
  }
}

const ANY_REF = "pulumi.json#/Any";

function shapeOf(property: SchemaProperty, where: string): Shape {
  if (property.$ref === ANY_REF) return { any: true };
  if (property.$ref !== undefined) {
    if (!property.$ref.startsWith(TYPE_REF)) throw new Error(`${where}: unknown type ${property.$ref}`);
    const name = property.$ref.slice(TYPE_REF.length);
    const type = schema().types[`hosting:index:${name}`];
    if (type === undefined) throw new Error(`${where}: schema.json has no type ${name}`);
    if (type.type === "string" && type.enum !== undefined) {
      const names: Record<string, string> = {};
      for (const e of type.enum) names[e.value] = e.name ?? e.value;
      return { scalar: "string", enum: { type: name, names } };
    }
    const fields: Record<string, Shape> = {};
    for (const [key, p] of Object.entries(type.properties ?? {})) fields[key] = shapeOf(p, `${name}.${key}`);
    return { object: name, fields };
  }
  if (property.oneOf !== undefined) {
    const shapes = property.oneOf.map((p) => shapeOf(p, where));
    // An enum takes any string too (the schema says "the enum or a string"): one shape for both.
    const anEnum = shapes.some((s) => "scalar" in s && s.scalar === "string" && s.enum !== undefined);
    const kept = anEnum ? shapes.filter((s) => !("scalar" in s && s.scalar === "string" && !s.enum)) : shapes;
    return kept.length === 1 ? (kept[0] as Shape) : { oneOf: kept };
  }
  if (property.type === "array" && property.items !== undefined) {
    return { list: shapeOf(property.items, `${where}[]`) };
  }
  if (property.type === "object" && property.additionalProperties !== undefined) {
    return { map: shapeOf(property.additionalProperties, `${where}{}`) };
  }
  const t = property.type;
  if (t === "string") return { scalar: t };
  if (t === "integer" || t === "number" || t === "boolean") return { scalar: t };
  throw new Error(`${where}: schema.json type ${JSON.stringify(property)} has no counterpart in the writers`);
}

/** The shape of each input of a kind, as schema.json declares it. */
export function inputShapes(kind: string): Record<string, Shape> {
  const resource = schema().resources[`hosting:index:${kind}`];
  if (resource === undefined) throw new Error(`schema.json has no resource hosting:index:${kind}`);
  const shapes: Record<string, Shape> = {};
  for (const [key, p] of Object.entries(resource.inputProperties)) shapes[key] = shapeOf(p, `${kind}.${key}`);
  return shapes;
}

/** The shape of each argument of a function, as schema.json declares it. */
export function functionArgShapes(name: string): Record<string, Shape> {
  const fn = schema().functions?.[`hosting:index:${name}`];
  if (fn === undefined) throw new Error(`schema.json has no function hosting:index:${name}`);
  const shapes: Record<string, Shape> = {};
  for (const [key, p] of Object.entries(fn.inputs.properties)) shapes[key] = shapeOf(p, `${name}.${key}`);
  return shapes;
}

/** A shape that says what a value is, not what it may be. */
export type ValueShape = Exclude<Shape, { oneOf: Shape[] } | { any: true }>;

/**
 * The shape of one value where the schema allows several (`oneOf`, or Any: an input that takes a
 * string or a list of strings): the first alternative the value is of, or what the value is. A
 * value no alternative describes is a defect of discovery, named here.
 */
export function shapeFor(shape: Shape, value: unknown, where: string): ValueShape {
  if ("any" in shape) {
    if (Array.isArray(value)) {
      const first = value[0];
      return { list: first === undefined ? { scalar: "string" } : shapeFor(shape, first, `${where}[0]`) };
    }
    if (typeof value === "string") return { scalar: "string" };
    if (typeof value === "boolean") return { scalar: "boolean" };
    if (typeof value === "number") return { scalar: Number.isInteger(value) ? "integer" : "number" };
    // An object where anything goes (inside a rule's parameters): a map of its values.
    if (typeof value === "object" && value !== null) return { map: { any: true } };
    throw new Error(`${where}: ${JSON.stringify(value)} has no counterpart in the writers`);
  }
  if (!("oneOf" in shape)) return shape;
  const fits = (s: Shape): boolean => {
    if ("oneOf" in s) return s.oneOf.some(fits);
    if ("any" in s) return true;
    if ("list" in s) return Array.isArray(value);
    if ("object" in s || "map" in s)
      return typeof value === "object" && value !== null && !Array.isArray(value);
    if (s.scalar === "integer" || s.scalar === "number") return typeof value === "number";
    return typeof value === s.scalar;
  };
  const found = shape.oneOf.find(fits);
  if (found === undefined) throw new Error(`${where}: ${JSON.stringify(value)} is of none of its types`);
  return shapeFor(found, value, where);
}

/** Pulumi's Python name of a camelCase name (`runnerGroupId` -> `runner_group_id`). */
export function pythonName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** Pulumi's Go name of a camelCase name (`runnerGroupId` -> `RunnerGroupId`). */
export function goName(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The enum of a value's shape that names `value`, where it has one. */
export function enumNameOf(shape: ValueShape, value: unknown): { type: string; name: string } | undefined {
  if (!("scalar" in shape) || shape.scalar !== "string" || shape.enum === undefined) return undefined;
  if (typeof value !== "string" || !Object.hasOwn(shape.enum.names, value)) return undefined;
  return { type: shape.enum.type, name: shape.enum.names[value] as string };
}
