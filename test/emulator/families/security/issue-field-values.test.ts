/**
 * Issue field values over HTTP: the values of each data type, pagination, the 301 of a transferred
 * issue (followed to its new place), the 410 of a deleted one, and the public view.
 */
import { describe, expect, it } from "vitest";
import { call, expectErrorBody, type Json, parseLink, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

const path = (n: number | string, repo = "acme-eng/api") => `/repos/${repo}/issues/${n}/issue-field-values`;
const get = (p: string, token: string | null = TOKENS.member) =>
  call(sandbox.emulator, "GET", p, { token, redirect: "manual" });

describe("issue field values", () => {
  it("lists a text and a single select value of issue #1", async () => {
    const response = await get(path(1));
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("link")).toBeNull();
    expect(response.body).toEqual([
      {
        issue_field_id: 1,
        issue_field_name: "Summary",
        node_id: expect.any(String),
        data_type: "text",
        value: "Login fails behind the proxy",
      },
      {
        issue_field_id: 2,
        issue_field_name: "Priority",
        node_id: expect.any(String),
        data_type: "single_select",
        value: 21,
        single_select_option: { id: 21, name: "High", color: "red" },
      },
    ]);
    expect(response.body[0].node_id).not.toBe(response.body[1].node_id);
  });

  it("pages with per_page and page", async () => {
    const first = await get(`${path(1)}?per_page=1`);
    expect(first.body.map((v: Json) => v.issue_field_id)).toEqual([1]);
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    const second = await get(links.next ?? "");
    expect(second.body.map((v: Json) => v.issue_field_id)).toEqual([2]);
    expect(parseLink(second.headers.get("link")).prev).toBeDefined();
  });

  it("answers 301 for the transferred issue #2, with a Location that serves its values", async () => {
    const moved = await get(`${path(2)}?per_page=2`);
    expect(moved.status).toBe(301);
    expectErrorBody(moved.body, "Moved Permanently");
    const location = moved.headers.get("location");
    expect(location).toBe(`${sandbox.emulator.url}${path(4, "acme-eng/web")}?per_page=2`);
    const followed = await get(location ?? "");
    expect(followed.status).toBe(200);
    expect(followed.body.map((v: Json) => [v.data_type, v.value])).toEqual([
      ["number", 3],
      ["date", "2026-02-01"],
    ]);
    const all = await get(path(4, "acme-eng/web"));
    expect(all.body[2]).toEqual({
      issue_field_id: 5,
      issue_field_name: "Areas",
      node_id: expect.any(String),
      data_type: "multi_select",
      value: "auth,ui",
      multi_select_options: [
        { id: 51, name: "auth", color: "blue" },
        { id: 52, name: "ui", color: "green" },
      ],
    });
  });

  it("answers 410 for the deleted issue #3", async () => {
    const response = await get(path(3));
    expect(response.status).toBe(410);
    expectErrorBody(response.body, "This issue was deleted");
  });

  it("answers 404 for an issue that does not exist or a malformed number", async () => {
    for (const n of [99, "0", "1e0", "abc"]) {
      const response = await get(path(n));
      expect(response.status, String(n)).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
  });

  it("is public on public repositories only", async () => {
    expect((await get(path(4, "acme-eng/web"), null)).status).toBe(200);
    expect((await get(path(4, "acme-eng/web"), TOKENS.noScopes)).status).toBe(200);
    // acme-eng/api is private: hidden from anonymous callers, tokens without repo, and apps without Issues.
    for (const token of [null, TOKENS.noScopes, TOKENS.install]) {
      const response = await get(path(1), token);
      expect(response.status, String(token)).toBe(404);
    }
    // The redirect is not shown to those who cannot see the issue.
    expect((await get(path(2), null)).status).toBe(404);
    expect((await get(path(1), "svcp_unknown")).status).toBe(401);
  });
});
