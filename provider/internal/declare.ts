/**
 * A kind is declared once: its fields with their types (zod), what each means (a description) and
 * how it behaves (replace-on-change, set, create-only, secret), its outputs, its identity and how
 * `hosting-import` finds its objects. Everything else is derived from that one declaration: check
 * (the zod schema), diff (the field rules), the outputs the resource class declares, the public
 * `XArgs` types (`ArgsOf`), the Pulumi package schema (`schema.json`), the reference pages and the
 * importer's crawl. This is pulumi-go-provider's `infer` done with zod: behaviour written beside the
 * field, never in a parallel list.
 *
 * A field is a zod schema registered with its behaviour by `field(...)` (inputs) or `output(...)`
 * (output-only values). Nested objects are named with zod's own `.meta({ id })` (their name in the
 * schema and the reference: `BudgetAlerting` is `hosting:index:BudgetAlerting`) and describe their
 * fields with `.meta({ description })`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { HostingClient } from "../client/http";
import type { FieldRule } from "./diff";
import { type IdCodec, idCodec } from "./ids";

/** A conversion between a state value and its wire form, where the two differ. */
export interface WireCodec<S, W> {
  /** The state value of what the API sent (`undefined` when it sent nothing). */
  fromWire(wire: W | undefined): S | undefined;
  /** The wire form of a state value. */
  toWire(value: S): W;
}

/** Where a field lives in the API's objects: a dotted path (`config.content_type`), and its codec. */
export interface Wire {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a field's codec is typed where it is declared
  codec?: WireCodec<any, any>;
  /**
   * The wire value meaning "none" (`null`, `""`), where the API keeps what a field left out of a
   * write had: a value left out is sent as it (so it clears), and it reads as left out.
   */
  none?: null | string;
}

/** What a field means and how a change to it behaves. */
export interface FieldBehaviour extends FieldRule {
  /** What the API does with it, its default, whether a change replaces (Markdown, one paragraph). */
  description: string;
  /**
   * Where the API carries it, where that is a plain rename (`config.content_type`), with a codec
   * where the forms differ: the kind's mapper, write body and comparison derive from it (wire.ts).
   */
  wire?: Wire;
}

/** The registry of top-level fields: the behaviour of each registered zod schema. */
const fieldRegistry = z.registry<FieldBehaviour>();

/**
 * A field of a kind's inputs: the schema that checks it, registered with what it means and how it
 * behaves. Call it outermost (after `.optional()`/`.default()`), so the field is the schema itself.
 */
export function field<T extends z.ZodType>(schema: T, behaviour: FieldBehaviour): T {
  const known = fieldRegistry.get(schema);
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(behaviour)) {
    throw new Error(`one zod schema declared twice with different behaviour: ${behaviour.description}`);
  }
  fieldRegistry.add(schema, behaviour);
  return schema;
}

/** An output-only field (set by the server): its schema and what it means. */
export function output<T extends z.ZodType>(schema: T, description: string): T {
  return field(schema, { description });
}

/** The behaviour a field was declared with; throws for a schema never passed to `field`. */
export function behaviourOf(schema: z.ZodType, where: string): FieldBehaviour {
  const behaviour = fieldRegistry.get(schema);
  if (behaviour === undefined) throw new Error(`${where} is not declared with field() or output()`);
  return behaviour;
}

/** Where discovery reads a kind's objects, and the module of the program that adopts them. */
export type DiscoveryScope = "org" | "repository" | "enterprise" | "siteAdmin" | "user";

/** The place discovery is listing: an organisation, a repository, an enterprise, or the installation. */
export interface DiscoveryPlace {
  org?: string;
  owner?: string;
  repo?: string;
  enterprise?: string;
  /** The organisations named on the command line (site administration reads them by login). */
  orgs: readonly string[];
  /**
   * One read shared by the kinds listed at this place (the runner groups that both OrgRunnerGroup and
   * RunnerGroupRunners list), made once per key however many kinds ask.
   */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/** An argument whose value is another object's output, e.g. a group's `runnerGroupId`. */
export interface Reference {
  kind: string;
  id: string;
  output: string;
}

/** One object discovery found, before it is read. */
export interface Found {
  /** The resource's id (as the kind's `idFormat` builds it). */
  id: string;
  /** The `importId` the adopting resource takes (kinds that have one). */
  importId?: string | number;
  /**
   * The inputs, when the list says everything (a membership, a block): the object is then not
   * read again through the provider.
   */
  inputs?: Record<string, unknown>;
  /** What a person calls the object where its arguments do not say (a key's title, a group's name). */
  label?: string;
  /** Arguments that take another object's output, where that object is adopted too. */
  refs?: Record<string, Reference>;
}

/** How `hosting-import` lists a kind's objects. */
export interface Discovery {
  scope: DiscoveryScope;
  /** The family's name in warnings ("webhooks of acme-eng/api"). */
  what: (place: DiscoveryPlace) => string;
  /** The objects at a place. A 401, 403 or 404 skips the family with a warning. */
  list: (c: HostingClient, place: DiscoveryPlace) => Promise<Found[]>;
  /**
   * The resource names `hosting-import` gives the kind's objects, from the shortest to the most
   * specific (importer/naming.ts `nameFrom`): `{arg}` is an argument as a slug, `{a|b}` the first
   * that is set, `{url:host}` and `{url:hostpath}` a URL's host (and path), `{label}` the object's
   * label, `{module}` the program module's name, `{=text}` a literal.
   */
  names: readonly string[];
  /**
   * What destroy (or removing it from the program) does to an object the program adopted, which
   * existed before the stack: the arguments written for it and the one-line comment above it.
   * Absent: the resource gets `retainOnDelete`, so destroy leaves the object on the server.
   */
  adopted?: { args: Record<string, unknown>; comment: string };
  /** A label from what read reports, where the list gave none (a protection rule's app slug). */
  labelOf?: (props: Record<string, unknown>) => string | undefined;
  /**
   * Whether the object holds a secret the API never returns, so the program reads it from stack
   * config (default: the secret field is set in what read reports).
   */
  needsSecret?: (inputs: Record<string, unknown>) => boolean;
}

/** What a kind declares about itself. */
export interface KindDeclaration<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  F extends readonly string[] = readonly string[],
> {
  /** The resource kind (`RepositoryWebhook`): type tokens, module names and docs derive from it. */
  kind: string;
  /**
   * What it is, its routes and the token it needs (Markdown). The first sentence is its summary in
   * the reference's index.
   */
  description: string;
  /** The parts of the resource's id, in order (`["owner", "repository", "hookId"]`). */
  idFormat: F;
  /**
   * The id as the reference writes it, where its parts are not `idFormat` joined by `/` (an
   * OrgRoleAssignment's `org/teams/<team>/<roleId>` or `org/users/<username>/<roleId>`).
   */
  idText?: string;
  /**
   * What `importId` holds, where it is not the id's last part: the key the API finds an existing
   * object by, which `pulumi import` then takes as the id (Organization: `"login"`; its id is the
   * numeric id). The plugin records the id an import was given as `importId`, so the program
   * `pulumi import` writes adopts the object by that key; the reference says so.
   */
  importKey?: string;
  /** The program's arguments: each a `field(...)`. */
  inputs: I;
  /** The values the server sets, beyond the inputs: each an `output(...)`. */
  outputs: O;
  /** How `hosting-import` finds the kind's objects; absent for kinds it does not import. */
  discovery?: Discovery;
}

/** The id parts of a kind whose field is a number: server-assigned ids, parsed as integers. */
type IntegerParts<I extends z.ZodObject, O extends z.ZodObject, F extends readonly string[]> = {
  [K in F[number]]: K extends keyof (z.infer<I> & z.infer<O>)
    ? NonNullable<(z.infer<I> & z.infer<O>)[K]> extends number
      ? K
      : never
    : never;
}[F[number]];

/** A declaration with what derives from it. */
export interface DeclaredKind<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  F extends readonly string[] = readonly string[],
> extends KindDeclaration<I, O, F>,
    IdCodec<F, IntegerParts<I, O, F>> {
  /** How diff compares each input. */
  readonly rules: Readonly<Record<string, FieldRule>>;
  /** Every output name: the inputs, then the output-only fields. */
  readonly outputNames: readonly string[];
  /** The inputs that are secrets. */
  readonly secrets: readonly string[];
  /** The input that adopts an existing object by its server id, where the kind has one. */
  readonly adopts: boolean;
  /** The inputs that name the object (the id's parts that are inputs): never left out by the importer. */
  readonly identity: readonly string[];
}

/** Whether a field holds a number (through optional, default and nullable). */
function isNumber(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  if (def.innerType !== undefined && ["optional", "default", "nullable", "prefault"].includes(def.type)) {
    return isNumber(def.innerType);
  }
  return def.type === "number";
}

/** Checks a declaration and derives its rules, outputs, secrets, identity and id codec. */
export function declareKind<I extends z.ZodObject, O extends z.ZodObject, const F extends readonly string[]>(
  declaration: KindDeclaration<I, O, F>,
): DeclaredKind<I, O, F> {
  const { kind } = declaration;
  const inputs = Object.entries(declaration.inputs.shape as Record<string, z.ZodType>);
  const outputs = Object.entries(declaration.outputs.shape as Record<string, z.ZodType>);
  const rules: Record<string, FieldRule> = {};
  for (const [name, schema] of inputs) {
    const { description: _text, wire: _wire, ...rule } = behaviourOf(schema, `${kind}.${name}`);
    rules[name] = rule;
  }
  for (const [name, schema] of outputs) {
    if (name in rules) throw new Error(`${kind}.${name} is declared as an input and as an output`);
    behaviourOf(schema, `${kind}.${name}`);
  }
  const outputNames = [...inputs.map(([n]) => n), ...outputs.map(([n]) => n)];
  for (const part of declaration.idFormat) {
    if (!outputNames.includes(part)) throw new Error(`${kind}'s id part ${part} is neither input nor output`);
  }
  // An id part that is a number field is a server-assigned id: parseId reads it as an integer.
  const fieldsByName = new Map([...inputs, ...outputs]);
  const integers = new Set(
    declaration.idFormat.filter((part) => {
      const schema = fieldsByName.get(part);
      return schema !== undefined && isNumber(schema);
    }),
  );
  return {
    ...declaration,
    ...idCodec<F, IntegerParts<I, O, F>>(kind, declaration.idFormat, integers),
    rules,
    outputNames,
    secrets: Object.entries(rules)
      .filter(([, r]) => r.secret === true)
      .map(([n]) => n),
    adopts: "importId" in rules,
    identity: declaration.idFormat.filter((part) => part in rules),
  };
}

/** What a read function declares about itself: its arguments and its result, each field described. */
export interface FunctionDeclaration<
  A extends z.ZodObject = z.ZodObject,
  R extends z.ZodObject = z.ZodObject,
> {
  /** The function's name (`getOrgMembers`): its token is `hosting:index:getOrgMembers`. */
  name: string;
  /** What it reads, the routes and the token it needs (Markdown). */
  description: string;
  /** Its arguments: each a `field(...)`. */
  args: A;
  /** Its result: each an `output(...)`. */
  result: R;
}

/** Checks that every argument and result field of a function is described. */
export function declareFunction<A extends z.ZodObject, R extends z.ZodObject>(
  declaration: FunctionDeclaration<A, R>,
): FunctionDeclaration<A, R> {
  for (const [part, shape] of [
    ["args", declaration.args.shape],
    ["result", declaration.result.shape],
  ] as const) {
    for (const [name, schema] of Object.entries(shape as Record<string, z.ZodType>)) {
      behaviourOf(schema, `${declaration.name} ${part}.${name}`);
    }
  }
  return declaration;
}

type Primitive = string | number | boolean | bigint | null | undefined;

/** A value as a program may give it: every level may be a `pulumi.Input`. */
export type InputOf<T> = T extends Primitive
  ? T
  : T extends ReadonlyArray<infer E>
    ? Array<pulumi.Input<InputOf<E>>>
    : { [K in keyof T]: pulumi.Input<InputOf<T[K]>> };

/** A kind's `XArgs`, derived from its declared inputs: what the program writes, defaults optional. */
export type ArgsOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: pulumi.Input<InputOf<z.input<S>[K]>>;
};

/** A nested type's `XArgs` (`BudgetAlertingArgs`), derived from its schema. */
export type NestedArgsOf<S extends z.ZodType> = InputOf<z.input<S>>;

/** What state holds for a kind: its inputs as check reads them, and its output-only fields. */
export type OutputsOfKind<D> = D extends {
  inputs: infer I extends z.ZodObject;
  outputs: infer O extends z.ZodObject;
}
  ? z.infer<I> & (keyof O["shape"] extends never ? unknown : z.infer<O>)
  : never;
