/**
 * Secrets unwrapped for the kinds and wrapped again for the engine, with a key `__proto__` (which a
 * program or a server may send) kept as a property at every depth, never made the prototype.
 */
import { describe, expect, it } from "vitest";
import { type Properties, secret, unwrap, wrap } from "../../../provider/plugin/properties";

const withProto = (json: string) => JSON.parse(json) as Properties;

describe("unwrap and wrap", () => {
  it("keep a key __proto__ as a property, at the top and inside a secret", () => {
    const sent = withProto('{"__proto__": {"polluted": true}, "nested": {"__proto__": 1}}');
    sent.hidden = secret(withProto('{"__proto__": "s"}'));
    const { values, secrets } = unwrap(sent);
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect((values as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(values).sort()).toEqual(["__proto__", "hidden", "nested"]);
    expect(Object.keys(values.hidden as object)).toEqual(["__proto__"]);
    expect(Object.keys(values.nested as object)).toEqual(["__proto__"]);
    expect([...secrets]).toEqual(["hidden"]);

    const answered = wrap(values, secrets);
    expect(Object.keys(answered).sort()).toEqual(["__proto__", "hidden", "nested"]);
    expect(Object.getOwnPropertyDescriptor(answered, "__proto__")?.value).toEqual({ polluted: true });
    expect(answered.hidden).toEqual(secret(withProto('{"__proto__": "s"}')));
  });
});
