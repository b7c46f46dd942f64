/**
 * Writes the data files of test/emulator/data-files/ with an earlier version's own server: run from
 * a checkout of that version (built), `node write.mjs <checkout> <data file> [--families all]`.
 * It starts that checkout's `hosting-emulator --data FILE`, makes one object of each family the
 * version serves through the API, and stops it; test/emulator/data-files.test.ts opens the result
 * with the current server. Plain JavaScript: it runs beside versions whose sources differ.
 *
 * The files here were made so, each from `git archive <commit>` unpacked outside the repository,
 * with this repository's node_modules linked in and `npx tsc -p tsconfig.build.json`:
 * - `0.2.0.state`: commit f50e4d4, the last of 0.2.0 (the next one opened "Unreleased" above it),
 *   `node write.mjs /tmp/sandbox-020 0.2.0.state` (its server writes JSON whatever the name);
 * - `main-41a41d3.db`: commit 41a41d3, `node write.mjs /tmp/sandbox-main main-41a41d3.db --families all`.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";

const [checkout, data, ...rest] = process.argv.slice(2);
if (!checkout || !data) throw new Error("usage: node write.mjs <checkout> <data file> [--families all]");
const all = rest.includes("--families") && rest.includes("all");
const sodium = createRequire(join(checkout, "package.json"))("libsodium-wrappers");

const child = spawn(
  process.execPath,
  [join(checkout, "dist/emulator/cli.js"), "--port", "0", "--data", data],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const root = await new Promise((resolve, reject) => {
  child.stdout.once("data", (chunk) => {
    const match = /listening on (\S+)/.exec(String(chunk));
    if (match) resolve(match[1]);
    else reject(new Error(`unexpected first line: ${chunk}`));
  });
  child.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
});

async function call(method, path, body, { token = "svcp_siteadmin", version } = {}) {
  const response = await fetch(`${root}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(version ? { "x-service-api-version": version } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

try {
  const hook = await call("POST", "/repos/acme-eng/api/hooks", {
    config: { url: "https://hooks.example.com/data-file", content_type: "json", secret: "s3cret" },
    events: ["push", "pull_request"],
  });
  await call("POST", `/repos/acme-eng/api/hooks/${hook.id}/pings`);
  await call("POST", "/admin/hooks", {
    name: "web",
    config: { url: "https://global.example.com/data-file" },
  });
  await call("POST", "/orgs/acme-eng/actions/runner-groups", { name: "data-file-group", visibility: "all" });
  await call("PUT", "/orgs/acme-eng/memberships/mona", { role: "member" });
  await call("POST", "/repos/acme-eng/api/environments/production/deployment_protection_rules", {
    integration_id: 101,
  });
  await call("PATCH", "/repos/acme-eng/api/properties/values", {
    properties: [{ property_name: "tier", value: "gold" }],
  });
  const v2026 = { version: "2026-03-10" };
  await call(
    "PATCH",
    "/organizations/acme-eng/org-properties/values",
    {
      properties: [{ property_name: "regions", value: ["eu", "us"] }],
    },
    v2026,
  );
  await call(
    "POST",
    "/enterprises/acme/settings/billing/budgets",
    {
      budget_amount: 40,
      prevent_further_usage: false,
      budget_alerting: { will_alert: true, alert_recipients: ["admin"] },
      budget_scope: "organization",
      budget_entity_name: "acme-eng",
      budget_type: "ProductPricing",
      budget_product_sku: "actions",
    },
    v2026,
  );
  const key = await call("GET", "/orgs/acme-eng/private-registries/public-key");
  await sodium.ready;
  const sealed = sodium.crypto_box_seal(
    sodium.from_string("data-file-token"),
    sodium.from_base64(key.key, sodium.base64_variants.ORIGINAL),
  );
  await call("POST", "/orgs/acme-eng/private-registries", {
    registry_type: "npm_registry",
    url: "https://npm.example.com",
    visibility: "all",
    encrypted_value: sodium.to_base64(sealed, sodium.base64_variants.ORIGINAL),
    key_id: key.key_id,
  });
  if (all) {
    await call("POST", "/user/keys", {
      title: "data-file",
      key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFJ9YIm1yN606hPDnvp/KOtBd6xmqe66OxmRlXxPlvLN data-file",
    });
    await call("POST", "/repos/acme-eng/api/branches/release%2F1.0/rename", { new_name: "release/1.1" });
    await call("PUT", "/orgs/acme-eng/blocks/hubot");
    await call("POST", "/orgs/acme-eng/issue-types", { name: "Incident", is_enabled: true, color: "red" });
    await call(
      "PATCH",
      "/repos/acme-eng/api/depwatch/alerts/2",
      {
        state: "dismissed",
        dismissed_reason: "tolerable_risk",
      },
      v2026,
    );
    await call("PUT", "/notifications", {}, v2026);
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}
