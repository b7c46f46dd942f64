/** Conditional requests (RFC 9110 13.1): which validators make a GET a 304. */
import { describe, expect, it } from "vitest";
import { notModified } from "../../../emulator/core/conditional";

const ETAG = 'W/"abc"';
const CREATED = "2026-01-02T03:04:05Z";

describe("notModified", () => {
  it("matches If-None-Match weakly, in a list, or as *", () => {
    expect(notModified('W/"abc"', undefined, ETAG, undefined)).toBe(true);
    expect(notModified('"abc"', undefined, ETAG, undefined)).toBe(true);
    expect(notModified('"x" , W/"abc"', undefined, ETAG, undefined)).toBe(true);
    expect(notModified("*", undefined, ETAG, undefined)).toBe(true);
    expect(notModified('"abcd"', undefined, ETAG, undefined)).toBe(false);
    expect(notModified("", undefined, ETAG, undefined)).toBe(false);
  });

  it("uses If-Modified-Since only without If-None-Match, and only where there is a date", () => {
    const same = new Date(CREATED).toUTCString();
    const before = new Date(Date.parse(CREATED) - 1000).toUTCString();
    expect(notModified(undefined, same, ETAG, CREATED)).toBe(true);
    expect(notModified(undefined, before, ETAG, CREATED)).toBe(false);
    expect(notModified(undefined, "not a date", ETAG, CREATED)).toBe(false);
    expect(notModified(undefined, same, ETAG, undefined)).toBe(false);
    expect(notModified('"other"', same, ETAG, CREATED)).toBe(false);
    expect(notModified(undefined, undefined, ETAG, CREATED)).toBe(false);
  });
});
