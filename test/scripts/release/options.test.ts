/**
 * The release's flags (scripts/release/options.ts): defaults, the pluginDownloadURL forms the
 * Pulumi CLI takes, versions every package manager takes, and errors naming the flag.
 */
import { describe, expect, it } from "vitest";
import {
  checkDownloadUrl,
  DEFAULT_DOWNLOAD_URL,
  parseOptions,
  releaseTags,
} from "../../../scripts/release/options";
import { ALL_PLATFORMS } from "../../../scripts/sea/executable";

/** The CLI's placeholder in a download URL, replaced by the version it downloads. */
const PLACEHOLDER = "$" + "{VERSION}";

describe("parseOptions", () => {
  it("builds every platform for package.json's version and the project's GitHub releases by default", () => {
    expect(parseOptions([])).toEqual({
      mode: "release",
      downloadUrl: DEFAULT_DOWNLOAD_URL,
      platforms: ALL_PLATFORMS,
    });
    expect(ALL_PLATFORMS).toEqual([
      "linux-amd64",
      "linux-arm64",
      "darwin-amd64",
      "darwin-arm64",
      "windows-amd64",
    ]);
  });

  it("takes each flag as `--flag value` or `--flag=value`, platforms in the usual order", () => {
    expect(
      parseOptions([
        "--version",
        "0.3.0",
        `--download-url=https://dl.example.com/hosting/v${PLACEHOLDER}`,
        "--platforms",
        "windows-amd64,linux-amd64",
        "--out",
        "/tmp/r",
      ]),
    ).toEqual({
      mode: "release",
      version: "0.3.0",
      downloadUrl: `https://dl.example.com/hosting/v${PLACEHOLDER}`,
      platforms: ["linux-amd64", "windows-amd64"],
      out: "/tmp/r",
    });
  });

  it("bumps alone", () => {
    expect(parseOptions(["--bump", "0.3.0"])).toEqual({ mode: "bump", version: "0.3.0" });
    expect(() => parseOptions(["--bump", "0.3.0", "--version", "0.3.0"])).toThrow(
      "--bump is used alone (it builds nothing); remove --version",
    );
    expect(parseOptions(["--help"])).toEqual({ mode: "help" });
  });

  it("refuses what it does not know, naming the flag and what is allowed", () => {
    expect(() => parseOptions(["--verison", "1.0.0"])).toThrow(
      /"--verison" is not a flag of the release; allowed: --version/,
    );
    expect(() => parseOptions(["--version"])).toThrow("--version needs a value");
    expect(() => parseOptions(["--out", "a", "--out", "b"])).toThrow("--out is given twice");
    expect(() => parseOptions(["--platforms", "linux-amd64,freebsd-amd64"])).toThrow(
      '--platforms: "freebsd-amd64" is not a platform; allowed: linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64',
    );
  });

  it("takes versions npm, Go and PyPI all take, and refuses others", () => {
    for (const ok of ["0.3.0", "1.0.0", "0.3.0-rc.1", "2.10.4-alpha.0", "0.3.0-beta.12"]) {
      expect(parseOptions(["--version", ok])).toMatchObject({ version: ok });
    }
    for (const bad of ["v0.3.0", "0.3", "0.3.0-test.1", "0.3.0+build", "01.2.3", "0.3.0-rc"]) {
      expect(() => parseOptions(["--version", bad]), bad).toThrow(`--version: "${bad}" is not a version`);
    }
  });
});

describe("checkDownloadUrl", () => {
  it("takes the github://, gitlab:// and http(s):// forms of the Pulumi CLI", () => {
    for (const url of [
      "github://api.github.com/acme",
      "github://api.github.com/acme/pulumi-hosting",
      "github://github.example.com/acme/hosting",
      "gitlab://gitlab.example.com/1234",
      "gitlab://gitlab.com/acme%2Fpulumi-hosting",
      "https://downloads.example.com/hosting",
      `http://127.0.0.1:8080/v${PLACEHOLDER}`,
    ]) {
      expect(checkDownloadUrl(url), url).toBe(url);
    }
  });

  it("refuses forms the CLI refuses, saying which it takes", () => {
    for (const url of [
      "github://api.github.com",
      "github://api.github.com/a/b/c",
      "gitlab://gitlab.com/acme/pulumi-hosting",
      "s3://bucket/hosting",
      "downloads.example.com/hosting",
      "https://",
    ]) {
      expect(() => checkDownloadUrl(url), url).toThrow(
        /^--download-url: .* allowed: github:\/\/<host>\/<owner>\[\/<repo>\]/,
      );
    }
  });
});

it("tags a release v<version> and its Go module sdk/go/v<version>", () => {
  expect(releaseTags("0.3.0")).toEqual({ release: "v0.3.0", goModule: "sdk/go/v0.3.0" });
});
