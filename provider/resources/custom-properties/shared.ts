/**
 * What organisation and repository property values share. Each resource is one property's value of
 * one organisation or repository, keyed by names, so it adopts by construction: create sets the
 * value whatever it was. Every write is a PATCH of that one property (other properties, managed by
 * other resources or by hand, are never sent), and destroy sets it to null (no value).
 *
 * Reads: the API lists all values of an organisation or repository in one GET, and refresh reads
 * every resource on its own, so reads of one collection within a run share one GET
 * (`SharedReads`, invalidated by this process's writes). A property without a value reads as
 * `null`: a value removed outside Pulumi is drift on `value`, and `up` sets it again. Read by id
 * alone (an import), a property without a value is not found: there is nothing to adopt.
 *
 * Validation: check knows the value's shape (string, list, null) and the property's name; which
 * values a property allows is defined on the server, so a value it refuses comes back as the
 * server's 422, which names the property and the allowed values (docs/DECISIONS.md).
 */
import { z } from "zod";
import {
  type ApiCustomProperty,
  type ApiPropertyValue,
  customPropertiesRoutes,
  PROPERTY_NAME_PATTERN,
} from "../../../api/custom-properties";
import type { AnyRoute, ListRoute } from "../../../api/route";
import { isHostingApiError, isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { SHARED_READ_MS } from "../../internal/collection-reads";
import { client } from "../../internal/context";
import { field } from "../../internal/declare";
import { sameValue } from "../../internal/diff";
import { deleteIgnoringGone, type ProviderMethods, readOrGone } from "../../internal/lifecycle";
import { SharedReads } from "../../internal/shared-reads";

// ---------------------------------------------------------------------------------------------
// Declaration: the fields both kinds have
// ---------------------------------------------------------------------------------------------

/** A property's value: a string (string and single select), strings (multi select), or none. */
export type PropertyValue = string | string[] | null;

/** The value, compared as a set: a multi select's order means nothing. */
export const valueField = field(
  z
    .union(
      [
        z.string().min(1, "value must not be an empty string; use null to remove the value"),
        z
          .array(z.string().min(1, "value must not hold empty strings"))
          .min(1, "value must not be an empty list; use null to remove the value"),
      ],
      { error: "value must be a string, a list of strings (a multi select property), or null" },
    )
    .nullable()
    .default(null),
  {
    description:
      "The value: a string for string and single select properties, a list of strings for multi select ones (compared as a set), or `null` for no value. Which values are allowed is defined on the server: a value it refuses fails `up` with its message naming the property. Updates in place; a value changed or removed outside Pulumi shows as drift.",
    set: true,
  },
);

/** A custom property's name, as the platform allows it. */
export const propertyNameSchema = () =>
  z
    .string({ error: `propertyName is required: a custom property's name such as "cost_center"` })
    .regex(
      PROPERTY_NAME_PATTERN,
      `propertyName may hold only letters, digits, "_", "-", "$" and "#" (at most 75 characters)`,
    );

/**
 * The property's name and its value, the two fields both kinds share; `definedBy` says who defines
 * the property ("the enterprise defines for organisations") and `example` names one.
 */
export const propertyFields = (definedBy: string, example: string) => ({
  propertyName: field(propertyNameSchema(), {
    description: `The name of a custom property ${definedBy} (e.g. \`${example}\`). A change replaces the resource (the old property's value is removed).`,
    replace: true,
  }),
  value: valueField,
});

/** What both kinds' inputs have; the rest names the organisation or repository. */
export interface PropertyValueInputs {
  propertyName: string;
  value: PropertyValue;
}

// ---------------------------------------------------------------------------------------------
// The values collection of one organisation or repository
// ---------------------------------------------------------------------------------------------

/** Where one kind's values live, and what a 404 there means in the program's terms. */
export interface ValueCollection extends ValueRoutes {
  /** The likely causes of a 404 there, in order. */
  notFound: readonly string[];
}

/** The GET and the PATCH of one collection of values (they share its path). */
export interface ValueRoutes {
  /** e.g. `/organizations/acme-eng/org-properties/values` */
  path: string;
  get(c: HostingClient): Promise<ApiPropertyValue[]>;
  /** Repeating it is harmless, so the client may retry it. */
  patch(c: HostingClient, body: { properties: ApiPropertyValue[] }): Promise<unknown>;
}

/** The values collection that a GET and a PATCH route of the table name with `params`. */
export function valueRoutes<P>(
  get: ListRoute<P, ApiPropertyValue>,
  patch: AnyRoute<"PATCH", P>,
  params: P,
): ValueRoutes {
  return {
    path: get.path(params),
    get: async (c) => (await c.get(get, params)).data,
    patch: (c, body) => c.patch(patch, params, body, { idempotent: true }),
  };
}

const reads = new SharedReads<ApiPropertyValue[]>(SHARED_READ_MS);
const definitionReads = new SharedReads<ApiCustomProperty[]>(SHARED_READ_MS);

/** Forgets every shared answer: for tests that change values behind the provider's back. */
export function forgetSharedReads(): void {
  reads.clear();
  definitionReads.clear();
}

/** An organisation's repository property definitions (one GET shared by the checks of a run). */
export function definitionsOf(org: string): Promise<ApiCustomProperty[]> {
  const c = client();
  return definitionReads.read(c, org.toLowerCase(), () =>
    c.paginate(customPropertiesRoutes.propertyDefinitions.list, { org }),
  );
}

const keyOf = (collection: ValueCollection) => collection.path.toLowerCase();

/** Every value of the collection (one GET, shared by the reads of a run). */
function readValues(c: HostingClient, collection: ValueCollection): Promise<ApiPropertyValue[]> {
  return reads.read(c, keyOf(collection), () => collection.get(c));
}

/** PATCHes one property's value; repeating it is harmless, so the client may retry it. */
function writeValue(
  c: HostingClient,
  collection: ValueCollection,
  propertyName: string,
  value: PropertyValue,
): Promise<unknown> {
  return reads.write(c, keyOf(collection), () =>
    collection.patch(c, { properties: [{ property_name: propertyName, value }] }),
  );
}

/** A property absent from the list has no value: `null`, as the program writes "no value". */
function valueIn(values: readonly ApiPropertyValue[], propertyName: string): PropertyValue {
  return values.find((v) => v.property_name === propertyName)?.value ?? null;
}

// ---------------------------------------------------------------------------------------------
// The lifecycle both kinds share
// ---------------------------------------------------------------------------------------------

/** What a kind says about itself; `valueMethods` does the rest. */
export interface ValueKind<I extends PropertyValueInputs> {
  kind: string;
  /** The identity an id names (the kind's `parseId`): every input but `value`. */
  parseId(id: string): Omit<I, "value">;
  /** The id of the value the inputs name (the kind's `formatId`). */
  formatId(inputs: I): string;
  collectionOf(inputs: I): ValueCollection;
}

/** create, read, update and delete of one kind of property value; the outputs are the inputs. */
export function valueMethods<I extends PropertyValueInputs>(
  kind: ValueKind<I>,
): Pick<ProviderMethods<I, I>, "create" | "read" | "update" | "delete"> {
  const set = async (inputs: I): Promise<void> => {
    const collection = kind.collectionOf(inputs);
    try {
      await writeValue(client(), collection, inputs.propertyName, inputs.value);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      throw notFoundError({
        method: "PATCH",
        path: collection.path,
        what: `${kind.kind} ${kind.formatId(inputs)}`,
        causes: collection.notFound,
      });
    }
  };
  /** The inputs an id names, spelled as the program recorded them when known, with `value`. */
  const fromId = (id: string, recorded: Partial<I> | undefined, value: PropertyValue): I => {
    const named: Record<string, unknown> = { ...kind.parseId(id) };
    for (const part of Object.keys(named)) named[part] = recorded?.[part as keyof I] ?? named[part];
    return { ...named, value } as I;
  };

  return {
    async create(inputs) {
      // Adoption changes nothing it need not: a value that is already set is taken as it is (the
      // read is the collection's, shared by every value of it in this run). A 404 is left to the
      // write, whose error says what is missing.
      const values = await readOrGone(() => readValues(client(), kind.collectionOf(inputs)));
      const current = values && valueIn(values, inputs.propertyName);
      if (current === undefined || !sameValue(current, inputs.value, true)) await set(inputs);
      return { id: kind.formatId(inputs), outs: { ...inputs } };
    },

    async read(id, props) {
      const identity = fromId(id, props, null);
      // 404: the organisation or repository is gone (or left the enterprise): refresh drops it.
      const values = await readOrGone(() => readValues(client(), kind.collectionOf(identity)));
      if (!values) return {};
      // A multi select in another order is the same value: state keeps the program's order.
      const live = valueIn(values, identity.propertyName);
      // Read by id alone (`pulumi import`, the static `get`): a property with no value is nothing to
      // adopt, and the list cannot tell it from a property that is not defined: not found, as every
      // other kind answers for an id that names nothing. A resource in state keeps `null` as drift.
      if (props === undefined && live === null) return {};
      const value = props?.value !== undefined && sameValue(props.value, live, true) ? props.value : live;
      return { id, props: fromId(id, props, value) };
    },

    async update(_id, _olds, news) {
      await set(news);
      return { outs: { ...news } };
    },

    async delete(id, props) {
      const identity = fromId(id, props, null);
      const collection = kind.collectionOf(identity);
      const c = client();
      try {
        await deleteIgnoringGone(() => writeValue(c, collection, identity.propertyName, null));
      } catch (e) {
        // A property whose definition was deleted refuses every value, null too; it has none left.
        if (!isHostingApiError(e) || e.code !== "validation_failed") throw e;
        const values = await readOrGone(() => readValues(c, collection));
        if (values && valueIn(values, identity.propertyName) !== null) throw e;
      }
    },
  };
}
