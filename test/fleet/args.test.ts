/** The command line: defaults, and refusals that name the flag and what it allows. */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { durationText, parseCommand, parseDuration } from "../../fleet/args";
import { run } from "../../fleet/run";

describe("hosting-fleet arguments", () => {
  it("has defaults: stack dev, 2 at once, every shard, 30 minutes a stack, JSON to stdout", () => {
    expect(parseCommand(["drift", "--root", "fleet"])).toEqual({
      kind: "run",
      operation: "drift",
      root: resolve("fleet"),
      stack: "dev",
      concurrency: 2,
      shard: undefined,
      timeoutMs: 30 * 60_000,
      refreshOnly: false,
      report: undefined,
      format: "json",
    });
  });

  it("reads drift --refresh-only", () => {
    const c = parseCommand(["drift", "--root", "x", "--refresh-only"]);
    expect(c.kind === "run" && c.refreshOnly).toBe(true);
  });

  it("reads --timeout as seconds, or a whole number with s, m or h", () => {
    const timeout = (text: string) => {
      const c = parseCommand(["up", "--root", "x", "--timeout", text]);
      return c.kind === "run" ? c.timeoutMs : undefined;
    };
    expect(timeout("90")).toBe(90_000);
    expect(timeout("90s")).toBe(90_000);
    expect(timeout("10m")).toBe(600_000);
    expect(timeout("2h")).toBe(7_200_000);
    expect(timeout("1s")).toBe(1_000);
    expect(timeout("24h")).toBe(86_400_000);
    for (const bad of [
      "0",
      "0s",
      "-5",
      "1.5m",
      "5 min",
      "m",
      "",
      "25h",
      "1e3",
      "90ms",
      "99999999999999999999",
    ]) {
      expect(() => parseDuration(bad), bad).toThrow(
        /^--timeout must be a duration from 1s to 24h: whole seconds \(90\) or a whole number with s, m or h \(90s, 10m, 2h\); got "/,
      );
    }
    expect([30 * 60_000, 90_000, 7_200_000, 1_000].map(durationText)).toEqual(["30m", "90s", "2h", "1s"]);
  });

  it("takes the format from the report's extension unless --format says", () => {
    const format = (...args: string[]) => {
      const c = parseCommand(["up", "--root", "x", ...args]);
      return c.kind === "run" ? c.format : undefined;
    };
    expect(format("--report", "r.xml")).toBe("junit");
    expect(format("--report", "r.md")).toBe("markdown");
    expect(format("--report", "r.json")).toBe("json");
    expect(format("--report", "r.xml", "--format", "json")).toBe("json");
  });

  it("reads report --merge with its files", () => {
    expect(parseCommand(["report", "--merge", "a.json", "b.json", "--format", "markdown"])).toEqual({
      kind: "merge",
      files: ["a.json", "b.json"],
      report: undefined,
      format: "markdown",
    });
  });

  it.each([
    [[], /an operation is needed: preview, up, drift, destroy, report/],
    [
      ["apply", "--root", "x"],
      /unknown operation "apply": the operations are preview, up, drift, destroy, report/,
    ],
    [["up"], /--root DIR is needed/],
    [
      ["up", "--root", "x", "--concurrency", "0"],
      /--concurrency must be a whole number from 1 to 64; got "0"/,
    ],
    [
      ["up", "--root", "x", "--concurrency", "1.5"],
      /--concurrency must be a whole number from 1 to 64; got "1.5"/,
    ],
    [
      ["up", "--root", "x", "--shard", "3/2"],
      /--shard must be I\/N with I and N whole numbers, 1 <= I <= N <= 1000/,
    ],
    [
      ["up", "--root", "x", "--timeout", "soon"],
      /--timeout must be a duration from 1s to 24h[^\n]*; got "soon"/,
    ],
    [
      ["report", "--merge", "a.json", "--timeout", "5m"],
      /--timeout is for an operation, not for report --merge/,
    ],
    [["up", "--root", "x", "--format", "html"], /--format must be json, junit, markdown; got "html"/],
    [["up", "--root", "x", "--stack", "a b"], /--stack must be a stack name/],
    [["up", "--root", "x", "extra"], /unexpected argument "extra" after up/],
    [["report", "a.json"], /report needs --merge FILE/],
    [["report", "--merge"], /--merge needs at least one JSON report file/],
    [
      ["report", "--merge", "a.json", "--shard", "1/2"],
      /--shard is for an operation, not for report --merge/,
    ],
    [["up", "--root", "x", "--merge"], /--merge is for report/],
    [
      ["preview", "--root", "x", "--refresh-only"],
      /--refresh-only is for drift \(hosting-fleet drift --refresh-only\), not for preview/,
    ],
    [
      ["report", "--merge", "a.json", "--refresh-only"],
      /--refresh-only is for an operation, not for report --merge/,
    ],
    [["up", "--root", "x", "--bogus"], /Unknown option '--bogus'/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(message);
  });

  it("exits 2 with the message and the usage on bad usage, and on a root without projects", async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (l: string) => err.push(l) };
    expect(await run(["up", "--root", "x", "--concurrency", "0x2"], io)).toBe(2);
    expect(err.join("\n")).toMatch(/^hosting-fleet: --concurrency must be[^\n]*\nusage: hosting-fleet/);
    err.length = 0;
    expect(await run(["up", "--root", resolve(__dirname, "../../docs")], io)).toBe(2);
    expect(err.join("\n")).toMatch(/no Pulumi project \(a folder with Pulumi.yaml\) under/);
  });
});
