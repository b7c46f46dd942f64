/**
 * The plugin's own protobuf reading and writing of the per-resource calls, against the SDK's
 * generated messages (what the engine's side is generated from too): every request field the
 * plugin reads comes out as the generated `toJavaScript` gives it, fields it does not read are
 * skipped, and every answer reads back with the generated messages as it was written.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { type Properties, secret, UNKNOWN } from "../../../provider/plugin/properties";
import { structproto, toStruct } from "../../../provider/plugin/proto";
import { readRequest, writeResponse } from "../../../provider/plugin/wire";

/** Values of every kind a `Struct` carries, the edges of each, and lengths that need two-byte varints. */
const PROPERTIES: Properties = {
  empty: "",
  text: "naïve ✓ 日本 🚀",
  long: "x".repeat(300),
  zero: 0,
  negative: -1.5,
  large: 2 ** 53 + 2,
  tiny: 5e-324,
  huge: 1.7976931348623157e308,
  yes: true,
  no: false,
  nothing: null,
  list: [1, "two", null, false, [], {}, [["nested"]]],
  emptyList: [],
  emptyObject: {},
  nested: { a: { b: { c: { d: ["deep", { e: 1 }] } } } },
  many: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, `value ${i}`.repeat(5)])),
  secret: secret({ inner: "s3cr3t", list: [1, 2] }),
  unknown: UNKNOWN,
  "": "an empty key",
};

const generatedReading = (struct: InstanceType<typeof structproto.Struct> | undefined) =>
  struct?.toJavaScript() ?? {};

describe("requests", () => {
  it("Check: urn, type, olds and news as the generated messages read them; other fields skipped", () => {
    const request = new provproto.CheckRequest()
      .setUrn("urn:pulumi:dev::p::hosting:index:RepositoryWebhook::hook")
      .setType("hosting:index:RepositoryWebhook")
      .setName("hook")
      .setOlds(toStruct({ url: "https://old.example.com" }))
      .setNews(toStruct(PROPERTIES))
      .setRandomseed(Buffer.from("seed"))
      .setOldOutputs(toStruct({ hookId: 7 }));
    const read = readRequest.check(request.serializeBinary());
    expect(read.urn).toBe(request.getUrn());
    expect(read.type).toBe(request.getType());
    expect(read.olds).toEqual(generatedReading(request.getOlds()));
    expect(read.news).toEqual(generatedReading(request.getNews()));
    expect(read.news).toEqual(PROPERTIES);
  });

  it("Diff, Read, Update and Delete: the id, their Structs and the preview flag", () => {
    const diff = new provproto.DiffRequest()
      .setId("42")
      .setUrn("urn:x")
      .setType("hosting:index:Team")
      .setOlds(toStruct(PROPERTIES))
      .setNews(toStruct({ a: 1 }))
      .setIgnorechangesList(["a", "b"])
      .setOldInputs(toStruct({ b: 2 }));
    expect(readRequest.diff(diff.serializeBinary())).toMatchObject({
      id: "42",
      urn: "urn:x",
      type: "hosting:index:Team",
      olds: PROPERTIES,
      news: { a: 1 },
    });

    const read = new provproto.ReadRequest()
      .setId("7")
      .setUrn("urn:r")
      .setProperties(toStruct({ p: [1] }));
    expect(readRequest.read(read.serializeBinary())).toMatchObject({
      id: "7",
      properties: { p: [1] },
      inputs: {},
    });

    const update = new provproto.UpdateRequest()
      .setId("9")
      .setNews(toStruct({ n: true }))
      .setPreview(true);
    expect(readRequest.update(update.serializeBinary())).toMatchObject({
      id: "9",
      news: { n: true },
      preview: true,
    });

    const remove = new provproto.DeleteRequest().setId("3").setProperties(toStruct({ x: null }));
    expect(readRequest.delete(remove.serializeBinary())).toMatchObject({ id: "3", properties: { x: null } });

    const create = new provproto.CreateRequest()
      .setUrn("urn:c")
      .setProperties(toStruct(PROPERTIES))
      .setTimeout(30);
    expect(readRequest.create(create.serializeBinary())).toMatchObject({
      urn: "urn:c",
      properties: PROPERTIES,
      preview: false,
    });
  });

  it("an empty request reads as empty fields", () => {
    const empty = readRequest.diff(new Uint8Array(0));
    expect([empty.urn, empty.type, empty.id, empty.preview]).toEqual(["", "", "", false]);
    expect([empty.olds, empty.news, empty.properties, empty.inputs]).toEqual([{}, {}, {}, {}]);
  });

  it("reads a key __proto__ as a property, never as the object's prototype", () => {
    // The generated messages cannot carry that key (their map is a plain object), so the Struct is
    // written by wire.ts: an UpdateResponse's field 1 made a CheckRequest's field 3 (`news`).
    const properties = JSON.parse('{"__proto__": {"polluted": true}, "name": "x"}') as Properties;
    const bytes = writeResponse.update({ properties });
    expect(bytes[0]).toBe(0x0a);
    bytes[0] = 0x1a;
    const news = readRequest.check(bytes).news;
    expect(Object.getPrototypeOf(news)).toBe(Object.prototype);
    expect(Object.keys(news).sort()).toEqual(["__proto__", "name"]);
    expect((news as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(news, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("refuses a truncated message, saying so", () => {
    const bytes = new provproto.CheckRequest().setNews(toStruct(PROPERTIES)).serializeBinary();
    expect(() => readRequest.check(bytes.subarray(0, bytes.length - 3))).toThrow(/truncated protobuf/);
  });

  it("refuses a Value with no kind, as the generated toJavaScript does", () => {
    const struct = new structproto.Struct();
    struct.getFieldsMap().set("odd", new structproto.Value());
    const bytes = new provproto.CheckRequest().setNews(struct).serializeBinary();
    expect(() => readRequest.check(bytes)).toThrow(/Value with no kind/);
  });
});

describe("answers", () => {
  it("Check: the inputs and each failure", () => {
    const bytes = writeResponse.check({
      inputs: PROPERTIES,
      failures: [
        { property: "url", reason: "must be https" },
        { property: "", reason: "" },
      ],
    });
    const read = provproto.CheckResponse.deserializeBinary(bytes);
    expect(read.getInputs()?.toJavaScript()).toEqual(PROPERTIES);
    expect(read.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["url", "must be https"],
      ["", ""],
    ]);
  });

  it("Diff: changes, replaces, the detailed diff and its flag", () => {
    const Kind = provproto.PropertyDiff.Kind;
    const bytes = writeResponse.diff({
      changes: provproto.DiffResponse.DiffChanges.DIFF_SOME,
      replaces: ["name"],
      deleteBeforeReplace: true,
      diffs: ["name", "url", "x".repeat(200)],
      detailedDiff: { name: Kind.UPDATE_REPLACE, url: Kind.ADD, ["x".repeat(200)]: Kind.DELETE },
      hasDetailedDiff: true,
    });
    const read = provproto.DiffResponse.deserializeBinary(bytes);
    expect(read.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(read.getReplacesList()).toEqual(["name"]);
    expect(read.getDeletebeforereplace()).toBe(true);
    expect(read.getDiffsList()).toEqual(["name", "url", "x".repeat(200)]);
    expect(read.getHasdetaileddiff()).toBe(true);
    const detailed: Record<string, [number, boolean]> = {};
    read.getDetaileddiffMap().forEach((diff, name) => {
      detailed[name] = [diff.getKind(), diff.getInputdiff()];
    });
    expect(detailed).toEqual({
      name: [Kind.UPDATE_REPLACE, true],
      url: [Kind.ADD, true],
      ["x".repeat(200)]: [Kind.DELETE, true],
    });
  });

  it("Diff without changes: no change and an empty detailed diff, flagged as complete", () => {
    const read = provproto.DiffResponse.deserializeBinary(
      writeResponse.diff({
        changes: provproto.DiffResponse.DiffChanges.DIFF_NONE,
        replaces: [],
        deleteBeforeReplace: false,
        diffs: [],
        detailedDiff: {},
        hasDetailedDiff: true,
      }),
    );
    expect(read.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(read.getHasdetaileddiff()).toBe(true);
    expect(read.getDetaileddiffMap().getLength()).toBe(0);
  });

  it("Create, Read and Update: the id, the properties and the inputs; an empty Read is no object", () => {
    const created = provproto.CreateResponse.deserializeBinary(
      writeResponse.create({ id: "12", properties: PROPERTIES }),
    );
    expect([created.getId(), created.getProperties()?.toJavaScript()]).toEqual(["12", PROPERTIES]);

    const read = provproto.ReadResponse.deserializeBinary(
      writeResponse.read({ id: "12", properties: { a: 1 }, inputs: { b: [true] } }),
    );
    expect([read.getId(), read.getProperties()?.toJavaScript(), read.getInputs()?.toJavaScript()]).toEqual([
      "12",
      { a: 1 },
      { b: [true] },
    ]);
    const gone = provproto.ReadResponse.deserializeBinary(writeResponse.read({}));
    expect([gone.getId(), gone.hasProperties(), gone.hasInputs()]).toEqual(["", false, false]);

    const updated = provproto.UpdateResponse.deserializeBinary(writeResponse.update({ properties: {} }));
    expect(updated.getProperties()?.toJavaScript()).toEqual({});
    expect(writeResponse.delete()).toHaveLength(0);
  });

  it("writes what it reads, byte for byte as the generated messages would read it back", () => {
    const bytes = writeResponse.create({ id: "1", properties: PROPERTIES });
    const again = readRequest.check(
      new provproto.CheckRequest()
        .setNews(provproto.CreateResponse.deserializeBinary(bytes).getProperties())
        .serializeBinary(),
    );
    expect(again.news).toEqual(PROPERTIES);
  });
});
