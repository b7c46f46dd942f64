/** The report's three renderings, its merge, and the exit codes it stands for. */
import { describe, expect, it } from "vitest";
import {
  exitCodeOf,
  type FleetReport,
  mdCell,
  mergeReports,
  parseReport,
  type StackResult,
  toJson,
  toJunit,
  toMarkdown,
  xmlEscape,
} from "../../fleet/report";

const clean: StackResult = {
  project: "acme-ops",
  stack: "prod",
  dir: "acme-ops",
  status: "clean",
  changes: [],
  seconds: 4.25,
};
const drift: StackResult = {
  project: "acme-eng",
  stack: "prod",
  dir: "acme-eng",
  status: "drift",
  seconds: 6.5,
  changes: [
    {
      urn: "urn:pulumi:prod::acme-eng::pulumi-nodejs:dynamic/hosting:OrgMembership::acme-eng-member-mona",
      type: "pulumi-nodejs:dynamic/hosting:OrgMembership",
      name: "acme-eng-member-mona",
      op: "update",
      fields: ["role"],
    },
  ],
};
const failed: StackResult = {
  project: "site-admin",
  stack: "prod",
  dir: "site-admin",
  status: "error",
  changes: [],
  seconds: 1,
  error: "error: the stack is currently locked by 1 lock(s) <\"&'>\u001b[31m\n  postgres://...",
};
const report = (stacks: StackResult[], shards: string[] = []): FleetReport => ({
  version: 1,
  operation: "drift",
  shards,
  stacks,
});

describe("exit codes", () => {
  it("are 0 clean, 1 drift, 2 error, an error outranking drift", () => {
    expect(exitCodeOf(report([clean]))).toBe(0);
    expect(exitCodeOf(report([]))).toBe(0);
    expect(exitCodeOf(report([clean, drift]))).toBe(1);
    expect(exitCodeOf(report([drift, failed]))).toBe(2);
    expect(exitCodeOf({ stacks: [{ ...clean, status: "ok" }] })).toBe(0);
  });
});

describe("JSON", () => {
  it("has the documented field names and reads back", () => {
    const text = toJson(report([drift], ["1/2"]));
    const value = JSON.parse(text);
    expect(Object.keys(value)).toEqual(["version", "operation", "shards", "stacks"]);
    expect(value.stacks[0]).toMatchObject({
      project: "acme-eng",
      stack: "prod",
      status: "drift",
      changes: [
        {
          urn: drift.changes[0]?.urn,
          type: drift.changes[0]?.type,
          name: "acme-eng-member-mona",
          fields: ["role"],
        },
      ],
    });
    expect(parseReport(text, "a.json")).toEqual(report([drift], ["1/2"]));
  });

  it("refuses what is not a report, naming the file", () => {
    expect(() => parseReport("{", "a.json")).toThrow(/^a\.json: not JSON/);
    expect(() => parseReport('{"stacks": []}', "b.json")).toThrow(
      /^b\.json: not a hosting-fleet JSON report/,
    );
    expect(() => parseReport('{"version":1,"operation":"apply","stacks":[]}', "c.json")).toThrow(
      /unknown operation "apply"/,
    );
    expect(() =>
      parseReport(
        '{"version":1,"operation":"drift","stacks":[{"project":"x","stack":"y","changes":[],"status":"odd"}]}',
        "d.json",
      ),
    ).toThrow(/stacks\[0\] has unknown status "odd"/);
  });
});

describe("merge", () => {
  it("joins the shards' stacks once each, in project order, with the shards named", () => {
    const merged = mergeReports([
      { report: report([failed, clean], ["2/2"]), source: "b.json" },
      { report: report([drift], ["1/2"]), source: "a.json" },
    ]);
    expect(merged.shards).toEqual(["1/2", "2/2"]);
    expect(merged.stacks.map((s) => s.project)).toEqual(["acme-eng", "acme-ops", "site-admin"]);
    expect(exitCodeOf(merged)).toBe(2);
  });

  it("refuses a stack in two reports, and reports of different operations", () => {
    expect(() =>
      mergeReports([
        { report: report([drift]), source: "a.json" },
        { report: report([drift]), source: "b.json" },
      ]),
    ).toThrow("acme-eng/prod is in both a.json and b.json");
    expect(() =>
      mergeReports([
        { report: report([drift]), source: "a.json" },
        { report: { ...report([clean]), operation: "up" }, source: "b.json" },
      ]),
    ).toThrow(/b\.json is a report of up, a\.json of drift/);
    expect(() => mergeReports([])).toThrow(/at least one report/);
  });
});

describe("JUnit XML", () => {
  it("escapes the special characters and drops those XML cannot carry", () => {
    expect(xmlEscape(`a<b>&"c'`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;");
    expect(xmlEscape("x\u001b[31my\u0000z\ttab\nline")).toBe("x\uFFFD[31my\uFFFDz\ttab\nline");
    expect(xmlEscape("\uD800 lone, \uD83D\uDE00 pair")).toBe("\uFFFD lone, \uD83D\uDE00 pair");
  });

  it("has one test case per stack, drift a failure naming the fields, an error an error", () => {
    const xml = toJunit(report([clean, drift, failed]));
    expect(xml).toContain('<testsuites name="hosting-fleet drift" tests="3" failures="1" errors="1"');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('<testcase classname="acme-ops" name="acme-ops/prod" time="4.250" />');
    expect(xml).toContain(
      '<failure type="drift" message="1 resource drifted">update pulumi-nodejs:dynamic/hosting:OrgMembership acme-eng-member-mona: role</failure>',
    );
    expect(xml).toContain(
      '<error type="error" message="error: the stack is currently locked by 1 lock(s) &lt;&quot;&amp;&apos;&gt;\uFFFD[31m">',
    );
    // Well formed: every element closed, no raw control character left.
    const controls = [...xml].filter((c) => (c.codePointAt(0) ?? 0) < 0x20 && !"\t\n\r".includes(c));
    expect(controls).toEqual([]);
    const opened = (xml.match(/<(testsuites|testsuite|testcase|failure|error)[ >]/g) ?? []).length;
    const closed = (xml.match(/<\/(testsuites|testsuite|testcase|failure|error)>|\/>/g) ?? []).length;
    expect(closed).toBe(opened);
  });
});

describe("Markdown", () => {
  it("summarises, then lists each drifted resource with its fields, cells escaped", () => {
    const md = toMarkdown(report([clean, drift, failed], ["1/2", "2/2"]));
    expect(md).toContain("## hosting-fleet drift (shards 1/2, 2/2)");
    expect(md).toContain("3 stacks: 1 clean, 1 drift, 1 error.");
    expect(md).toContain("| acme-eng/prod | ⚠️ drift | 1 | 6.5 s |");
    expect(md).toContain(
      "| acme-eng-member-mona | pulumi-nodejs:dynamic/hosting:OrgMembership | update | role |",
    );
    expect(md).toContain("### site-admin/prod\n\n```text\nerror: the stack is currently locked");
    expect(mdCell("a|b\n<c>`d`")).toBe("a\\|b<br>&lt;c&gt;\\`d\\`");
  });
});
