import { describe, expect, it } from "vitest";
import {
  API_VERSION_DEFAULT,
  normaliseBaseUrl,
  resolveSettings,
  type SettingsSource,
} from "../../../provider/client/config";
import { HostingApiError } from "../../../provider/client/errors";

/** Runs `fn`, expecting it to throw a configuration error, and returns that error. */
function configFailure(fn: () => unknown): HostingApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HostingApiError);
    const error = e as HostingApiError;
    expect(error.code).toBe("configuration");
    expect(error.status).toBeUndefined();
    return error;
  }
  throw new Error("expected a configuration error");
}

function stack(values: Record<string, string | undefined> = {}): SettingsSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    get(key: string) {
      asked.push(key);
      return values[key];
    },
  };
}

describe("normaliseBaseUrl", () => {
  it.each([
    ["https://hosting.example.com", "https://hosting.example.com/api/v3"],
    ["https://hosting.example.com/", "https://hosting.example.com/api/v3"],
    ["https://hosting.example.com//", "https://hosting.example.com/api/v3"],
    ["http://hosting.example.com:8080", "http://hosting.example.com:8080/api/v3"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/api/v3"],
    ["https://hosting.example.com:443", "https://hosting.example.com/api/v3"],
    ["https://hosting.example.com/api/v3", "https://hosting.example.com/api/v3"],
    ["https://hosting.example.com/api/v3/", "https://hosting.example.com/api/v3"],
    ["https://hosting.example.com/hosting/api/v3", "https://hosting.example.com/hosting/api/v3"],
    ["https://hosting.example.com/hosting/api/v3/", "https://hosting.example.com/hosting/api/v3"],
    ["https://api.hosting.example.com/", "https://api.hosting.example.com/api/v3"],
    ["  https://hosting.example.com/api/v3  ", "https://hosting.example.com/api/v3"],
    ["\thttps://hosting.example.com\n", "https://hosting.example.com/api/v3"],
    ["HTTPS://Hosting.Example.COM", "https://hosting.example.com/api/v3"],
  ])("turns %j into %s", (raw, expected) => {
    expect(normaliseBaseUrl(raw)).toBe(expected);
  });

  it("rejects text that is not a URL, quoting it and naming the key", () => {
    const error = configFailure(() => normaliseBaseUrl("  not a url  "));
    expect(error.message).toBe(
      'hosting:baseUrl must be an absolute http(s) URL such as https://hosting.example.com; got "not a url"',
    );
  });

  it("rejects a host without a scheme", () => {
    const error = configFailure(() => normaliseBaseUrl("//hosting.example.com"));
    expect(error.message).toMatch(/^hosting:baseUrl must be an absolute http\(s\) URL/);
  });

  it.each([
    ["ftp://hosting.example.com", "ftp"],
    ["file:///etc/passwd", "file"],
    ["ws://hosting.example.com", "ws"],
  ])("rejects the scheme of %s", (raw, scheme) => {
    const error = configFailure(() => normaliseBaseUrl(raw));
    expect(error.message).toBe(`hosting:baseUrl must use http or https; got "${scheme}"`);
  });

  it.each([
    "https://user:hunter22@hosting.example.com",
    "https://user@hosting.example.com/api/v3",
    "https://:hunter22@hosting.example.com",
  ])("rejects credentials in %s without repeating them", (raw) => {
    const error = configFailure(() => normaliseBaseUrl(raw));
    expect(error.message).toBe(
      "hosting:baseUrl must not carry credentials; set hosting:token (or HOSTING_TOKEN) instead",
    );
    expect(error.message).not.toContain("hunter22");
    expect(error.message).not.toContain("user@");
  });

  it.each([
    "https://hosting.example.com/api/v3?per_page=100",
    "https://hosting.example.com/?x",
    "https://hosting.example.com/api/v3#top",
  ])("rejects the query or fragment of %s", (raw) => {
    const error = configFailure(() => normaliseBaseUrl(raw));
    expect(error.message).toBe(`hosting:baseUrl must not have a query or fragment; got "${raw}"`);
  });

  it("names the source key it was given in every rejection", () => {
    for (const raw of [
      "nope",
      "ftp://h.example",
      "https://u:p@h.example",
      "https://h.example/?q=1",
      "https://h.example/#f",
    ]) {
      const error = configFailure(() => normaliseBaseUrl(raw, "HOSTING_BASE_URL"));
      expect(error.message.startsWith("HOSTING_BASE_URL must")).toBe(true);
      expect(error.message).not.toContain("hosting:baseUrl must");
    }
  });
});

describe("resolveSettings", () => {
  const env = {
    HOSTING_BASE_URL: "https://env.example.com",
    HOSTING_TOKEN: "env-token-1234",
    HOSTING_API_VERSION: "2026-03-10",
  };

  it("prefers stack config over the environment for every key", () => {
    const config = stack({
      "hosting:baseUrl": "https://config.example.com/hosting/api/v3/",
      "hosting:token": "config-token-5678",
      "hosting:apiVersion": "2022-11-28",
    });
    expect(resolveSettings(config, env)).toEqual({
      apiRoot: "https://config.example.com/hosting/api/v3",
      token: "config-token-5678",
      apiVersion: "2022-11-28",
      tokenOrigin: { source: "hosting:token" },
    });
    expect(config.asked).toEqual(["hosting:baseUrl", "hosting:token", "hosting:apiVersion"]);
  });

  it("falls back to the environment for every key", () => {
    expect(resolveSettings(stack(), env)).toEqual({
      apiRoot: "https://env.example.com/api/v3",
      token: "env-token-1234",
      apiVersion: "2026-03-10",
      tokenOrigin: { source: "HOSTING_TOKEN" },
    });
  });

  it("mixes the two per key", () => {
    const config = stack({ "hosting:token": "config-token-5678" });
    expect(resolveSettings(config, env)).toEqual({
      apiRoot: "https://env.example.com/api/v3",
      token: "config-token-5678",
      apiVersion: "2026-03-10",
      tokenOrigin: { source: "hosting:token" },
    });
    const config2 = stack({ "hosting:baseUrl": "http://localhost:3000", "hosting:apiVersion": "2022-11-28" });
    expect(resolveSettings(config2, env)).toEqual({
      apiRoot: "http://localhost:3000/api/v3",
      token: "env-token-1234",
      apiVersion: "2022-11-28",
      tokenOrigin: { source: "HOSTING_TOKEN" },
    });
  });

  it("treats an empty config value as unset", () => {
    const config = stack({ "hosting:baseUrl": "", "hosting:token": "", "hosting:apiVersion": "" });
    expect(resolveSettings(config, env)).toEqual({
      apiRoot: "https://env.example.com/api/v3",
      token: "env-token-1234",
      apiVersion: "2026-03-10",
      tokenOrigin: { source: "HOSTING_TOKEN" },
    });
  });

  it("leaves apiVersion undefined when neither place sets it", () => {
    const settings = resolveSettings(stack(), {
      HOSTING_BASE_URL: "https://h.example",
      HOSTING_TOKEN: "abcd1234",
    });
    expect(settings.apiVersion).toBeUndefined();
    expect(settings).toEqual({
      apiRoot: "https://h.example/api/v3",
      token: "abcd1234",
      apiVersion: undefined,
      tokenOrigin: { source: "HOSTING_TOKEN" },
    });
  });

  it("names where the token was set, as a source describes it", () => {
    const config = {
      get: (key: string) => (key === "hosting:token" ? "opt-token-1234" : undefined),
      describe: () => "the option",
    };
    expect(resolveSettings(config, env).tokenOrigin?.source).toBe("the option");
    expect(resolveSettings({ ...config, describe: () => undefined }, env).tokenOrigin?.source).toBe(
      "hosting:token",
    );
    expect(resolveSettings(stack(), env).tokenOrigin?.source).toBe("HOSTING_TOKEN");
  });

  it("trims whitespace around the token", () => {
    const settings = resolveSettings(stack({ "hosting:token": "  tok-abcdef\n" }), {
      HOSTING_BASE_URL: "https://h.example",
    });
    expect(settings.token).toBe("tok-abcdef");
  });

  it("fails without a base URL, naming hosting:baseUrl and HOSTING_BASE_URL", () => {
    const error = configFailure(() => resolveSettings(stack(), { HOSTING_TOKEN: "abcd1234" }));
    expect(error.message).toContain("hosting:baseUrl");
    expect(error.message).toContain("HOSTING_BASE_URL");
    const empty = configFailure(() =>
      resolveSettings(stack(), { HOSTING_BASE_URL: "", HOSTING_TOKEN: "abcd1234" }),
    );
    expect(empty.message).toBe(error.message);
  });

  it("fails without a token, naming hosting:token and HOSTING_TOKEN", () => {
    const error = configFailure(() => resolveSettings(stack(), { HOSTING_BASE_URL: "https://h.example" }));
    expect(error.message).toContain("hosting:token");
    expect(error.message).toContain("HOSTING_TOKEN");
    expect(error.message).toContain("--secret");
    const empty = configFailure(() =>
      resolveSettings(stack({ "hosting:token": "" }), {
        HOSTING_BASE_URL: "https://h.example",
        HOSTING_TOKEN: "",
      }),
    );
    expect(empty.message).toBe(error.message);
  });

  it("fails on nothing at all with the base URL error first", () => {
    const error = configFailure(() => resolveSettings(stack(), {}));
    expect(error.message).toContain("HOSTING_BASE_URL");
    expect(error.message).not.toContain("HOSTING_TOKEN");
  });

  it("trims the apiVersion like every other setting", () => {
    const settings = resolveSettings(stack({ "hosting:apiVersion": " 2022-11-28 " }), {
      HOSTING_BASE_URL: "https://h",
      HOSTING_TOKEN: "abcd",
    });
    expect(settings.apiVersion).toBe("2022-11-28");
  });

  it.each(["v3", "2022-11-28T00:00:00Z", "2022/11/28", "22-11-28"])(
    "rejects the apiVersion %j from stack config, naming hosting:apiVersion",
    (bad) => {
      const error = configFailure(() =>
        resolveSettings(stack({ "hosting:apiVersion": bad }), {
          HOSTING_BASE_URL: "https://h",
          HOSTING_TOKEN: "abcd",
        }),
      );
      expect(error.message).toBe(
        `hosting:apiVersion must be a date such as ${API_VERSION_DEFAULT}; got "${bad}"`,
      );
    },
  );

  it("rejects a bad HOSTING_API_VERSION, naming the environment variable", () => {
    const error = configFailure(() =>
      resolveSettings(stack(), {
        HOSTING_BASE_URL: "https://h",
        HOSTING_TOKEN: "abcd",
        HOSTING_API_VERSION: "latest",
      }),
    );
    expect(error.message).toBe('HOSTING_API_VERSION must be a date such as 2022-11-28; got "latest"');
  });

  it("names the key the bad base URL came from", () => {
    const fromEnv = configFailure(() =>
      resolveSettings(stack(), { HOSTING_BASE_URL: "ftp://h.example", HOSTING_TOKEN: "abcd" }),
    );
    expect(fromEnv.message).toBe('HOSTING_BASE_URL must use http or https; got "ftp"');
    const fromConfig = configFailure(() =>
      resolveSettings(stack({ "hosting:baseUrl": "https://h.example/?a=1" }), { HOSTING_TOKEN: "abcd" }),
    );
    expect(fromConfig.message).toBe(
      'hosting:baseUrl must not have a query or fragment; got "https://h.example/?a=1"',
    );
  });

  it("does not consult the environment when stack config has a (bad) value", () => {
    const error = configFailure(() =>
      resolveSettings(stack({ "hosting:baseUrl": "not a url" }), {
        ...env,
        HOSTING_BASE_URL: "https://ok.example",
      }),
    );
    expect(error.message).toContain("hosting:baseUrl");
    expect(error.message).not.toContain("ok.example");
  });

  it("reads process.env by default", () => {
    const saved = { ...process.env };
    try {
      process.env.HOSTING_BASE_URL = "https://default-env.example";
      process.env.HOSTING_TOKEN = "default-env-token";
      delete process.env.HOSTING_API_VERSION;
      expect(resolveSettings(stack())).toEqual({
        apiRoot: "https://default-env.example/api/v3",
        token: "default-env-token",
        apiVersion: undefined,
        tokenOrigin: { source: "HOSTING_TOKEN" },
      });
    } finally {
      for (const key of ["HOSTING_BASE_URL", "HOSTING_TOKEN", "HOSTING_API_VERSION"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  // A blank token must not be sent as `Bearer ` (never redacted) nor hide HOSTING_TOKEN.
  it("treats a whitespace-only token as missing", () => {
    const error = configFailure(() =>
      resolveSettings(stack({ "hosting:token": "   " }), { HOSTING_BASE_URL: "https://h.example" }),
    );
    expect(error.message).toContain("HOSTING_TOKEN");
  });
});
