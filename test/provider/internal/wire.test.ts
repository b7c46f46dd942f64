/** The wire mapping derived from the `wire` paths fields declare: mapper, write body, comparison. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { declareKind, field, type WireCodec } from "../../../provider/internal/declare";
import { distinct, wireMapping } from "../../../provider/internal/wire";

const flag: WireCodec<boolean, string> = {
  fromWire: (w) => (w === undefined ? undefined : w === "1"),
  toWire: (v) => (v ? "1" : "0"),
};

const hookKind = declareKind({
  kind: "WireHook",
  description: "A hook.",
  idFormat: [],
  inputs: z.object({
    url: field(z.string(), { description: "Where.", wire: { path: "config.url" } }),
    contentType: field(z.enum(["json", "form"]).default("form"), {
      description: "How.",
      wire: { path: "config.content_type" },
    }),
    insecure: field(z.boolean().default(false), {
      description: "TLS.",
      wire: { path: "config.insecure_ssl", codec: flag },
    }),
    events: field(z.array(z.string()).default(["push"]), {
      description: "What.",
      set: true,
      wire: { path: "events", codec: distinct },
    }),
    note: field(z.string().optional(), { description: "Not on the wire." }),
  }),
  outputs: z.object({}),
});
const wire = wireMapping<z.infer<typeof hookKind.inputs>>(hookKind.inputs, hookKind.rules);

describe("wireMapping", () => {
  it("reads each mapped field from its path, a value the API left out as the field's default", () => {
    expect(wire.fromWire({ config: { url: "https://x", insecure_ssl: "1" }, events: ["a"] })).toEqual({
      url: "https://x",
      contentType: "form",
      insecure: true,
      events: ["a"],
    });
  });

  it("writes the mapped fields at their paths, through their codecs, leaving out the others", () => {
    const body = wire.toWire({
      url: "https://x",
      contentType: "json",
      insecure: false,
      events: ["a", "a", "b"],
      note: "n",
    });
    expect(body).toEqual({
      config: { url: "https://x", content_type: "json", insecure_ssl: "0" },
      events: ["a", "b"],
    });
  });

  it("names the fields the API object differs in, comparing sets as sets", () => {
    const api = { config: { url: "https://x", content_type: "json", insecure_ssl: "0" }, events: ["b", "a"] };
    expect(
      wire.changed(api, { url: "https://x", contentType: "json", insecure: false, events: ["a", "b"] }),
    ).toEqual([]);
    expect(
      wire.changed(api, { url: "https://y", contentType: "form", insecure: false, events: ["a"] }),
    ).toEqual(["url", "contentType", "events"]);
  });

  it("keeps the wire path out of the diff rules", () => {
    expect(hookKind.rules.url).toEqual({});
    expect(hookKind.rules.events).toEqual({ set: true });
  });
});

describe("wireMapping with a wire value meaning none", () => {
  const noteKind = declareKind({
    kind: "WireNote",
    description: "A note.",
    idFormat: [],
    inputs: z.object({
      title: field(z.string(), { description: "Title.", wire: { path: "title" } }),
      body: field(z.string().optional(), { description: "Body.", wire: { path: "body", none: null } }),
      tag: field(z.string().optional(), { description: "Tag.", wire: { path: "meta.tag", none: "" } }),
    }),
    outputs: z.object({}),
  });
  const notes = wireMapping<z.infer<typeof noteKind.inputs>>(noteKind.inputs, noteKind.rules);

  it("sends a value left out as the none value, so the API clears what it kept", () => {
    expect(notes.toWire({ title: "t" })).toEqual({ title: "t", body: null, meta: { tag: "" } });
    expect(notes.toWire({ title: "t", body: "b", tag: "x" })).toEqual({
      title: "t",
      body: "b",
      meta: { tag: "x" },
    });
  });

  it("reads the none value as left out", () => {
    expect(notes.fromWire({ title: "t", body: null, meta: { tag: "" } })).toEqual({
      title: "t",
      body: undefined,
      tag: undefined,
    });
  });

  it("compares the none value as left out on either side", () => {
    expect(notes.changed({ title: "t", body: null, meta: { tag: "" } }, { title: "t", tag: "" })).toEqual([]);
    expect(notes.changed({ title: "t", meta: { tag: "x" } }, { title: "t", tag: "" })).toEqual(["tag"]);
  });

  it("compares state values read before with the program's, fields without a wire path left out", () => {
    expect(notes.changedValues({ title: "t", tag: "" }, { title: "t" })).toEqual([]);
    expect(notes.changedValues({ title: "t", body: "b" }, { title: "u" })).toEqual(["title", "body"]);
  });
});
