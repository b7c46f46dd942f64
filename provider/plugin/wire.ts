/**
 * The protobuf wire form of the six calls the engine makes per resource (Check, Diff, Create, Read,
 * Update, Delete), read straight into plain properties and written straight from them.
 *
 * The SDK's generated messages (google-protobuf) decode a request into message objects, and their
 * `Struct.toJavaScript` / `fromJavaScript` then copy every property into another tree: measured on a
 * plugin answering Check and Diff, those copies and their garbage were about a third of its CPU, more
 * than this library's own work. The engine's `Struct`s are small JSON-like trees, so reading and
 * writing them here is a few dozen lines; grpc-js takes a method's (de)serialiser from the service
 * definition (`server.ts`), and every other call keeps the generated messages.
 *
 * Field numbers are those of pulumi/pulumi's proto/pulumi/provider.proto and of
 * google/protobuf/struct.proto; a field this module does not name is skipped by its wire type, as
 * protobuf requires, so a newer engine's additions pass. test/provider/plugin/wire.test.ts checks
 * both directions against the generated messages.
 */
import { type Properties, setOwn, type Value } from "./properties";

/** Wire types (protobuf encoding). */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;
const FIXED32 = 5;

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly view: DataView,
    private at: number,
    private readonly end: number,
  ) {}

  static of(bytes: Uint8Array): Reader {
    return new Reader(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length);
  }

  more(): boolean {
    return this.at < this.end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.end) throw new Error("hosting plugin: a truncated protobuf varint");
      const byte = this.bytes[this.at++] as number;
      // Beyond 2^53 a varint loses precision; the fields read here are lengths, tags, enums and bools.
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
      if (shift > 63) throw new Error("hosting plugin: a protobuf varint longer than 10 bytes");
    }
  }

  /** The tag of the next field: its number and wire type. */
  tag(): [number, number] {
    const tag = this.varint();
    return [Math.floor(tag / 8), tag & 7];
  }

  /** Steps over a length-delimited field's bytes (`what` it holds): where they start. */
  private span(what: string): number {
    // The length is read first: `this.at += this.varint()` would add it to the position before it.
    const length = this.varint();
    const start = this.at;
    this.at += length;
    if (this.at > this.end) throw new Error(`hosting plugin: a truncated protobuf ${what}`);
    return start;
  }

  /** A length-delimited field as a reader of its bytes. */
  sub(): Reader {
    const start = this.span("message");
    return new Reader(this.bytes, this.view, start, this.at);
  }

  string(): string {
    const start = this.span("string");
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, this.at - start).toString("utf8");
  }

  double(): number {
    if (this.at + 8 > this.end) throw new Error("hosting plugin: a truncated protobuf double");
    const value = this.view.getFloat64(this.at, true);
    this.at += 8;
    return value;
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === FIXED64) this.at += 8;
    else if (wireType === LENGTH) this.span("field");
    else if (wireType === FIXED32) this.at += 4;
    else throw new Error(`hosting plugin: protobuf wire type ${wireType} is not supported`);
    if (this.at > this.end) throw new Error("hosting plugin: a truncated protobuf field");
  }
}

/** google.protobuf.Struct: `map<string, Value> fields = 1`. */
function readStruct(reader: Reader): Properties {
  const out: Properties = {};
  while (reader.more()) {
    const [field, wireType] = reader.tag();
    if (field !== 1 || wireType !== LENGTH) {
      reader.skip(wireType);
      continue;
    }
    const entry = reader.sub();
    let key = "";
    let value: Value = null;
    while (entry.more()) {
      const [f, w] = entry.tag();
      if (f === 1 && w === LENGTH) key = entry.string();
      else if (f === 2 && w === LENGTH) value = readValue(entry.sub());
      else entry.skip(w);
    }
    setOwn(out, key, value);
  }
  return out;
}

/** google.protobuf.Value: a oneof of null (1), number (2), string (3), bool (4), struct (5), list (6). */
function readValue(reader: Reader): Value {
  let value: Value | undefined;
  while (reader.more()) {
    const [field, wireType] = reader.tag();
    if (field === 1 && wireType === VARINT) {
      reader.varint();
      value = null;
    } else if (field === 2 && wireType === FIXED64) value = reader.double();
    else if (field === 3 && wireType === LENGTH) value = reader.string();
    else if (field === 4 && wireType === VARINT) value = reader.varint() !== 0;
    else if (field === 5 && wireType === LENGTH) value = readStruct(reader.sub());
    else if (field === 6 && wireType === LENGTH) value = readList(reader.sub());
    else reader.skip(wireType);
  }
  // As the generated `Value.toJavaScript` does for a value with no kind set.
  if (value === undefined) throw new Error("hosting plugin: a protobuf Value with no kind");
  return value;
}

/** google.protobuf.ListValue: `repeated Value values = 1`. */
function readList(reader: Reader): Value[] {
  const out: Value[] = [];
  while (reader.more()) {
    const [field, wireType] = reader.tag();
    if (field === 1 && wireType === LENGTH) out.push(readValue(reader.sub()));
    else reader.skip(wireType);
  }
  return out;
}

/** Which fields of a request are read, and as what: its other fields are skipped. */
type Layout = Record<number, readonly [name: string, kind: "string" | "struct" | "bool"]>;

/** A request as plain fields: strings, booleans and `Struct`s (an absent `Struct` is `{}`). */
export interface ResourceRequest {
  urn: string;
  type: string;
  id: string;
  olds: Properties;
  news: Properties;
  properties: Properties;
  inputs: Properties;
  preview: boolean;
}

function requestReader(layout: Layout): (bytes: Uint8Array) => ResourceRequest {
  return (bytes) => {
    const request: ResourceRequest = {
      urn: "",
      type: "",
      id: "",
      olds: {},
      news: {},
      properties: {},
      inputs: {},
      preview: false,
    };
    const fields = request as unknown as Record<string, unknown>;
    const reader = Reader.of(bytes);
    while (reader.more()) {
      const [field, wireType] = reader.tag();
      const known = layout[field];
      if (known === undefined) reader.skip(wireType);
      else if (known[1] === "string" && wireType === LENGTH) fields[known[0]] = reader.string();
      else if (known[1] === "struct" && wireType === LENGTH) fields[known[0]] = readStruct(reader.sub());
      else if (known[1] === "bool" && wireType === VARINT) fields[known[0]] = reader.varint() !== 0;
      else reader.skip(wireType);
    }
    return request;
  };
}

/** The requests, by method: the fields provider.proto gives them. */
export const readRequest = {
  check: requestReader({
    1: ["urn", "string"],
    2: ["olds", "struct"],
    3: ["news", "struct"],
    7: ["type", "string"],
  }),
  diff: requestReader({
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["olds", "struct"],
    4: ["news", "struct"],
    8: ["type", "string"],
  }),
  create: requestReader({
    1: ["urn", "string"],
    2: ["properties", "struct"],
    4: ["preview", "bool"],
    6: ["type", "string"],
  }),
  read: requestReader({
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["properties", "struct"],
    4: ["inputs", "struct"],
    6: ["type", "string"],
  }),
  update: requestReader({
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["olds", "struct"],
    4: ["news", "struct"],
    7: ["preview", "bool"],
    10: ["type", "string"],
  }),
  delete: requestReader({
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["properties", "struct"],
    7: ["type", "string"],
  }),
} as const;

/** A growing buffer of protobuf fields. */
class Writer {
  private bytes = Buffer.allocUnsafe(256);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  varint(value: number): void {
    this.room(10);
    this.at = this.putVarint(this.at, value);
  }

  /** Writes `value` as a varint at `at` (room made by the caller): where it ends. */
  private putVarint(at: number, value: number): number {
    let end = at;
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[end++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[end++] = rest;
    return end;
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  string(field: number, value: string): void {
    const length = Buffer.byteLength(value, "utf8");
    this.tag(field, LENGTH);
    this.varint(length);
    this.room(length);
    this.at += this.bytes.write(value, this.at, length, "utf8");
  }

  /** A varint field (an enum, a bool, the null value), written even when 0. */
  number(field: number, value: number): void {
    this.tag(field, VARINT);
    this.varint(value);
  }

  bool(field: number, value: boolean): void {
    this.number(field, value ? 1 : 0);
  }

  double(field: number, value: number): void {
    this.tag(field, FIXED64);
    this.room(8);
    this.bytes.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  /**
   * A length-delimited field written by `write` in place: one byte is kept for its length (most
   * are under 128 bytes), and the field's bytes move up in the rare case the length needs more.
   */
  message(field: number, write: (w: Writer) => void): void {
    this.tag(field, LENGTH);
    this.room(1);
    const start = this.at++;
    write(this);
    const length = this.at - start - 1;
    let size = 1;
    for (let rest = length; rest >= 0x80; rest = Math.floor(rest / 0x80)) size++;
    if (size > 1) {
      this.room(size - 1);
      this.bytes.copyWithin(start + size, start + 1, this.at);
      this.at += size - 1;
    }
    this.putVarint(start, length);
  }

  finish(): Buffer {
    return this.bytes.subarray(0, this.at);
  }
}

function writeStruct(w: Writer, properties: Readonly<Record<string, Value>>): void {
  for (const [key, value] of Object.entries(properties)) {
    // `undefined` cannot be carried (the generated code refuses it); the answers never hold one.
    if (value === undefined) continue;
    w.message(1, (entry) => {
      entry.string(1, key);
      entry.message(2, (v) => writeValue(v, value));
    });
  }
}

function writeValue(w: Writer, value: Value): void {
  // A oneof member is written even when it holds its type's default (0, "", false).
  if (value === null) w.number(1, 0);
  else if (typeof value === "number") w.double(2, value);
  else if (typeof value === "string") w.string(3, value);
  else if (typeof value === "boolean") w.bool(4, value);
  else if (Array.isArray(value)) w.message(6, (list) => writeList(list, value));
  else if (typeof value === "object") w.message(5, (struct) => writeStruct(struct, value));
  else throw new Error(`hosting plugin: a ${typeof value} cannot be sent in a protobuf Struct`);
}

function writeList(w: Writer, values: readonly Value[]): void {
  for (const value of values) w.message(1, (v) => writeValue(v, value));
}

/** A string field, left out when empty (as proto3 writes it). */
function optionalString(w: Writer, field: number, value: string | undefined): void {
  if (value !== undefined && value !== "") w.string(field, value);
}

export interface CheckResponse {
  inputs: Properties;
  failures: ReadonlyArray<{ property: string; reason: string }>;
}

export interface DiffResponse {
  /** pulumirpc.DiffResponse.DiffChanges. */
  changes: number;
  replaces: readonly string[];
  deleteBeforeReplace: boolean;
  diffs: readonly string[];
  /** Sent only when `hasDetailedDiff`; each kind a pulumirpc.PropertyDiff.Kind. */
  detailedDiff: Readonly<Record<string, number>>;
  hasDetailedDiff: boolean;
}

/** Create, Read and Update answers: an id (Read, Create) and properties, inputs for Read. */
export interface PropertiesResponse {
  id?: string;
  properties?: Properties;
  inputs?: Properties;
}

/** Which fields of a Create, Read or Update answer go out, by number. */
type PropertiesLayout = Record<number, keyof PropertiesResponse>;

function propertiesWriter(layout: PropertiesLayout): (answer: PropertiesResponse) => Buffer {
  return (answer) => {
    const w = new Writer();
    for (const [field, name] of Object.entries(layout)) {
      const value = answer[name];
      if (typeof value === "string") optionalString(w, Number(field), value);
      else if (value !== undefined) w.message(Number(field), (s) => writeStruct(s, value));
    }
    return w.finish();
  };
}

/** The answers, by method: the fields provider.proto gives them. */
export const writeResponse = {
  check(answer: CheckResponse): Buffer {
    const w = new Writer();
    w.message(1, (s) => writeStruct(s, answer.inputs));
    for (const failure of answer.failures) {
      w.message(2, (f) => {
        optionalString(f, 1, failure.property);
        optionalString(f, 2, failure.reason);
      });
    }
    return w.finish();
  },
  diff(answer: DiffResponse): Buffer {
    const w = new Writer();
    for (const name of answer.replaces) w.string(1, name);
    if (answer.deleteBeforeReplace) w.bool(3, true);
    if (answer.changes !== 0) w.number(4, answer.changes);
    for (const name of answer.diffs) w.string(5, name);
    if (answer.hasDetailedDiff) {
      for (const [name, kind] of Object.entries(answer.detailedDiff)) {
        w.message(6, (entry) => {
          entry.string(1, name);
          entry.message(2, (diff) => {
            if (kind !== 0) diff.number(1, kind);
            diff.bool(2, true);
          });
        });
      }
      w.bool(7, true);
    }
    return w.finish();
  },
  create: propertiesWriter({ 1: "id", 2: "properties" }),
  read: propertiesWriter({ 1: "id", 2: "properties", 3: "inputs" }),
  update: propertiesWriter({ 1: "properties" }),
  /** google.protobuf.Empty. */
  delete(): Buffer {
    return Buffer.alloc(0);
  },
} as const;
