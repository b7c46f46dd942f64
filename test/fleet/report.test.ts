/** The report's three renderings, its merge, and the exit codes it stands for. */
import { describe, expect, it } from "vitest";
import {
  bounded,
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
      diffs: [{ field: "role", old: "admin", new: "member" }],
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
          diffs: [{ field: "role", old: "admin", new: "member" }],
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
      '<failure type="drift" message="1 resource drifted">update pulumi-nodejs:dynamic/hosting:OrgMembership acme-eng-member-mona: role\n  role: admin -&gt; member</failure>',
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
      "| acme-eng-member-mona | pulumi-nodejs:dynamic/hosting:OrgMembership | update | role: admin -> member |",
    );
    expect(md).toContain("### site-admin/prod\n\n```text\nerror: the stack is currently locked");
    expect(mdCell("a|b\n<c>`d`")).toBe("a\\|b<br>&lt;c&gt;\\`d\\`");
  });
});

/** A stack whose one resource has the given name and changed fields, for the hostile-input tests. */
function withResource(
  name: string,
  diffs: NonNullable<StackResult["changes"][number]["diffs"]>,
): StackResult {
  return {
    ...drift,
    changes: [
      {
        urn: `urn:pulumi:prod::acme-eng::hosting:index:OrgRunnerGroup::${name}`,
        type: "hosting:index:OrgRunnerGroup",
        name,
        op: "update",
        fields: diffs.map((d) => d.field),
        diffs,
      },
    ],
  };
}

describe("changed values", () => {
  it("show each field's old and new value in every format, (none) for a side without one", () => {
    const s = withResource("runners", [
      { field: "name", old: "Build", new: "Deploy" },
      { field: "allowsPublicRepositories", old: "false", new: "true" },
      { field: "restrictedToWorkflows", new: "true" },
      { field: "secret", old: "[secret]", new: "[secret]" },
    ]);
    const json = JSON.parse(toJson(report([s])));
    expect(json.stacks[0].changes[0].fields).toEqual([
      "name",
      "allowsPublicRepositories",
      "restrictedToWorkflows",
      "secret",
    ]);
    expect(json.stacks[0].changes[0].diffs[2]).toEqual({ field: "restrictedToWorkflows", new: "true" });
    const xml = toJunit(report([s]));
    expect(xml).toContain(
      "  name: Build -&gt; Deploy\n  allowsPublicRepositories: false -&gt; true\n  restrictedToWorkflows: (none) -&gt; true\n  secret: [secret] -&gt; [secret]</failure>",
    );
    const md = toMarkdown(report([s]));
    expect(md).toContain(
      "| name: Build -> Deploy<br>allowsPublicRepositories: false -> true<br>restrictedToWorkflows: (none) -> true<br>secret: \\[secret\\] -> \\[secret\\] |",
    );
  });

  it("are bounded in every format, even from a report file that holds longer ones", () => {
    const long = "x".repeat(5_000);
    const s = withResource("r", [{ field: "description", old: long, new: "short" }]);
    for (const text of [toJunit(report([s])), toMarkdown(report([s]))]) {
      expect(text).not.toContain("x".repeat(201));
      expect(text).toContain(`${"x".repeat(200)}… (4800 more characters)`);
    }
    expect(bounded("ab\uD83D\uDE00cd", 3)).toBe("ab\uD83D\uDE00… (2 more characters)");
  });

  it("are read back from a report file, and a report whose diffs are not text is refused", () => {
    const s = withResource("r", [{ field: "name", old: "a", new: "b" }]);
    expect(parseReport(toJson(report([s])), "a.json").stacks[0]?.changes[0]?.diffs).toEqual([
      { field: "name", old: "a", new: "b" },
    ]);
    const bad = JSON.parse(toJson(report([s])));
    bad.stacks[0].changes[0].diffs[0].old = { html: "<b>" };
    expect(() => parseReport(JSON.stringify(bad), "b.json")).toThrow(
      "b.json: stacks[0].changes[0].diffs[0] is not {field, old?, new?} of strings",
    );
  });
});

describe("Markdown under hostile names and values", () => {
  const hostile = [
    "![i](http://evil.example/x.png)",
    "[l](javascript:alert(1))",
    "<img src=x onerror=alert(1)>",
    "a|b",
    "`code`",
    "back\\|slash",
    "esc\u001b[31mred nul\u0000 del\u007f c1\u009b bell\u0007",
    "**bold** _em_ ~~strike~~",
    "see https://evil.example and WWW.evil.example",
    "line\nbreak\r\nand\rcr",
  ];

  it("renders every name and value as its text: no link, image, HTML, autolink or control character", () => {
    const stacks = hostile.map((name, i) => ({
      ...withResource(name, [{ field: name, old: name, new: `${name}!` }]),
      project: `p${i}`,
    }));
    const md = toMarkdown(report(stacks));
    // No raw control character but the newlines between lines.
    const controls = [...md].filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return (code < 0x20 && c !== "\n") || (code >= 0x7f && code <= 0x9f);
    });
    expect(controls).toEqual([]);
    // No unescaped bracket (a link or an image needs one) and no raw angle bracket.
    expect(md).not.toMatch(/(^|[^\\])[[\]]/m);
    expect(md).not.toMatch(/<(?!br>)/);
    // No bare address for an autolink to find.
    expect(md).not.toMatch(/:\/\/|www\./i);
    // Every row of a changes table has its four cells: no pipe breaks out of a cell.
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Stack"));
    for (const row of rows) {
      const cells = row.replace(/\\\\/g, "").split(/(?<!\\)\|/).length - 2;
      expect(cells, row).toBe(4);
    }
  });

  it("escapes each character as CommonMark reads it back", () => {
    expect(mdCell("![i](http://evil.example/x.png)")).toBe("!\\[i\\](http&#58;//evil.example/x.png)");
    expect(mdCell("[l](javascript:alert(1))")).toBe("\\[l\\](javascript:alert(1))");
    expect(mdCell("back\\|slash")).toBe("back\\\\\\|slash");
    expect(mdCell("esc\u001b[31m nul\u0000 c1\u009b")).toBe("esc\uFFFD\\[31m nul\uFFFD c1\uFFFD");
    expect(mdCell("**b** _e_ ~s~")).toBe("\\*\\*b\\*\\* \\_e\\_ \\~s\\~");
    expect(mdCell("www.x.example WWW.y.example")).toBe("www&#46;x.example WWW&#46;y.example");
    expect(mdCell("lone \uD800 and pair \uD83D\uDE00")).toBe("lone \uFFFD and pair \uD83D\uDE00");
  });

  it("keeps control characters and fences out of an error's code block", () => {
    const md = toMarkdown(
      report([{ ...failed, error: "error: boom\u001b[0m\u0000\n```\n[l](javascript:x)\n~~~" }]),
    );
    expect(md).toContain("```text\nerror: boom\uFFFD[0m\uFFFD\n'''\n[l](javascript:x)\n~~~\n```\n");
  });
});
