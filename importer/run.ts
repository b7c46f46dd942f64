/**
 * `hosting-import`: reads a live installation and writes a Pulumi program that adopts it, in
 * TypeScript (the dynamic resources) or, for the native plugin, YAML, Python or Go (`--language`);
 * or prints the
 * inventory (`--format json`) or the file `pulumi import --file` reads (`--format pulumi-import`).
 * Every output is a writer over the same inventory. Settings come as the provider's do: the
 * API address and the token from `HOSTING_BASE_URL` and `HOSTING_TOKEN`, never a token on the
 * command line, where `ps` would show it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_STACK } from "../fleet/args";
import { resolveSettings } from "../provider/client/config";
import { isHostingApiError } from "../provider/client/errors";
import { client, configure } from "../provider/internal/context";
import { discover, type Scope } from "./discover";
import { type Inventory, type InventoryItem, KINDS, type Kind, moduleFile, providerOf } from "./inventory";
import { modulesOf } from "./layout";
import { assignNames, assignSecretKeys, nameFrom, slug } from "./naming";
import { importHazards, writeImportFile } from "./pulumi-import";
import { writeSplit } from "./split";
import { isLanguage, LANGUAGES, type Language, type WriterOptions, writeProgramIn } from "./writers";

export const USAGE = `usage: hosting-import [--org NAME]... [--enterprise SLUG] [--site-admin] [--user] [--repo OWNER/NAME]...
                      [--kinds K1,K2] [--out DIR] [--force] [--language typescript|yaml|python|go] [--split]
                      [--format program|json|pulumi-import] [--base-url URL] [--project NAME] [--library SPEC]
                      [--stack NAME]
The token is read from HOSTING_TOKEN, the address from HOSTING_BASE_URL (or --base-url).
Kinds: ${KINDS.join(", ")}`;

export interface Io {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (line: string) => void;
}

/** Exit codes: 0 done (warnings included), 1 failed or nothing read, 2 bad usage. */
export async function run(argv: string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (e) {
    io.err(`hosting-import: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if ("help" in parsed) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  const options = parsed;
  const env = io.env;
  let requests = 0;
  try {
    // The provider's own resolution, `--base-url` in the place of the stack config.
    const flags = { get: (key: string) => (key === "hosting:baseUrl" ? options.baseUrl : undefined) };
    const settings = resolveSettings(flags, env);
    const resolved: Record<string, string | undefined> = {
      "hosting:baseUrl": settings.apiRoot,
      "hosting:token": settings.token,
      "hosting:apiVersion": settings.apiVersion,
    };
    configure(
      {
        get: (key) => resolved[key],
        describe: (key) => (key === "hosting:token" ? settings.tokenOrigin?.source : undefined),
      },
      { log: () => requests++ },
    );
  } catch (e) {
    io.err(`hosting-import: ${(e as Error).message}`);
    return 2;
  }
  if (options.format === "program" && !options.force && existsSync(options.out)) {
    if (readdirSync(options.out).length > 0) {
      io.err(
        `hosting-import: ${options.out} is not empty; choose another --out, or add --force to write into it`,
      );
      return 2;
    }
  }
  const c = client();

  const started = Date.now();
  let found: Awaited<ReturnType<typeof discover>>;
  try {
    found = await discover(c, options.scope, (line) => io.err(line));
  } catch (e) {
    io.err(`hosting-import: ${isHostingApiError(e) ? e.message : (e as Error).stack}`);
    return 1;
  }
  for (const w of found.warnings) io.err(`warning: ${w}`);
  for (const f of found.failures) io.err(`error: ${f}`);

  assignNames(found.items, nameCandidates);
  assignSecretKeys(found.items);
  const inventory: Inventory = {
    format: 1,
    apiRoot: c.apiRoot,
    items: sortItems(found.items),
    warnings: found.warnings,
    requests,
  };
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.err(`read ${inventory.items.length} objects with ${requests} requests in ${seconds} s`);

  const secrets = inventory.items.flatMap((i) => Object.values(i.secrets));
  if (options.format === "json") {
    // Requests and timing vary between runs; the inventory itself does not.
    const { requests: _r, ...stable } = inventory;
    io.out(`${JSON.stringify(stable, null, 2)}\n`);
  } else if (options.format === "pulumi-import") {
    const hazards = importHazards(inventory);
    if (hazards.length > 0) {
      // Nothing on stdout: a file that leaves objects out would be taken for the whole.
      io.err(
        `hosting-import: --format pulumi-import refuses ${hazards.length} object${hazards.length === 1 ? "" : "s"} whose values the code pulumi import generates in YAML reads back otherwise: "$$" as "$" (so "$\${x}" becomes an interpolation of the config or resource x, and the next up writes its value into the object), a line separator as a line break, words such as null, ~ or 0o17 as something other than text. Write a program with --language yaml (or typescript, python, go) instead: it carries every value exactly.`,
      );
      for (const hazard of hazards) io.err(`  ${hazard}`);
      return 1;
    }
    io.out(writeImportFile(inventory));
    if (secrets.length > 0) {
      // stdout is the file: what it cannot carry goes to stderr.
      io.err(
        `pulumi import records no value for ${secrets.length} secret${secrets.length === 1 ? "" : "s"} the API never returns (its code shows "(set outside Pulumi)"); declare each from secret config, and the next pulumi up writes it (each command asks for the value):`,
      );
      for (const item of inventory.items) {
        for (const [arg, key] of Object.entries(item.secrets))
          io.err(`  ${item.name} ${arg}: pulumi config set --secret ${key}`);
      }
    }
  } else if (options.split) {
    const files = writeSplit(inventory, { ...writerOptions(options, io), language: options.language });
    writeFiles(options.out, files);
    const projects = [...files.keys()].filter((f) => f.endsWith("/Pulumi.yaml")).length;
    io.err(`wrote ${projects} projects (${files.size} files) to ${options.out}`);
    if (secrets.length > 0) {
      const folders = modulesOf(inventory)
        .map((m) => ({
          dir: join(options.out, m.file),
          keys: m.items.flatMap((i) => Object.values(i.secrets)),
        }))
        .filter((p) => p.keys.length > 0);
      io.out(`${secretsHeader(`in stack ${options.stack} of each project, before its first up`)}\n`);
      for (const { dir, keys } of folders) io.out(secretCommands(dir, keys, options.stack));
    }
  } else {
    const files = writeProgramIn(options.language, inventory, writerOptions(options, io));
    writeFiles(options.out, files);
    io.err(`wrote ${files.size} files to ${options.out}`);
    if (secrets.length > 0) {
      io.out(`${secretsHeader(`in stack ${options.stack}, before its first pulumi up`)}\n`);
      io.out(secretCommands(options.out, secrets, options.stack));
    }
  }
  if (found.failures.length > 0) return 1;
  if (inventory.items.length === 0 && found.warnings.length > 0) {
    io.err("hosting-import: nothing could be read");
    return 1;
  }
  return 0;
}

/**
 * What is printed above the secrets' commands: shell comments, so the whole output runs as a
 * script, in order, on the folder just written.
 */
function secretsHeader(where: string): string {
  return [
    `# The API never returns these secrets: set each ${where}.`,
    "# Each `pulumi config set` asks for its value (or reads it from stdin); `stack select --create`",
    "# makes the stack where it does not exist yet.",
  ].join("\n");
}

/** The commands that make (or select) `stack` in `dir` and set each secret of `keys` in it. */
function secretCommands(dir: string, keys: readonly string[], stack: string): string {
  const cwd = `--cwd ${shellWord(dir)}`;
  return [
    `pulumi stack select --create ${stack} ${cwd}`,
    ...keys.map((key) => `pulumi config set --secret ${key} --stack ${stack} ${cwd}`),
    "",
  ].join("\n");
}

/** A word for a POSIX shell: as it is where it holds nothing the shell reads, else single-quoted. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** What the writers are given: the project, the library's spec, this package's versions. */
function writerOptions(options: Options, io: Io): WriterOptions {
  return {
    project: options.project,
    librarySpec: options.library ?? installedSpec(io),
    ...programVersions(),
    sdkVersion: ownVersion(),
  };
}

/** Writes each file under `out` (creating folders), by its relative path. */
function writeFiles(out: string, files: ReadonlyMap<string, string>): void {
  for (const [name, text] of files) {
    mkdirSync(dirname(join(out, name)), { recursive: true });
    writeFileSync(join(out, name), text);
  }
}

interface Options {
  scope: Scope;
  out: string;
  force: boolean;
  /** A program (in `language`), the inventory, or a `pulumi import --file` file. */
  format: "program" | "json" | "pulumi-import";
  language: Language;
  baseUrl: string | undefined;
  project: string;
  library: string | undefined;
  /** One project per module under `out` (a fleet), instead of one program. */
  split: boolean;
  /**
   * The stack the printed secret commands make and set: by default hosting-fleet's, so a fleet's
   * secrets are where `hosting-fleet up` looks.
   */
  stack: string;
}

/** The languages a program is written in: TypeScript for the dynamic resources, the others for the plugin. */

function parseOptions(argv: string[]): Options | { help: true } {
  const { values } = parseArgs({
    args: argv,
    options: {
      org: { type: "string", multiple: true },
      enterprise: { type: "string" },
      "site-admin": { type: "boolean" },
      user: { type: "boolean" },
      repo: { type: "string", multiple: true },
      kinds: { type: "string" },
      out: { type: "string" },
      force: { type: "boolean" },
      format: { type: "string" },
      language: { type: "string" },
      "base-url": { type: "string" },
      project: { type: "string" },
      library: { type: "string" },
      split: { type: "boolean" },
      stack: { type: "string" },
      token: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  // Help is help, whatever else the line holds: nothing else is checked.
  if (values.help === true) return { help: true };
  if (values.token !== undefined) {
    throw new Error(
      "--token is not accepted (the command line is visible to every user of the machine); set HOSTING_TOKEN",
    );
  }
  // `typescript`, the format's name before --language, still means a TypeScript program.
  const format = values.format === "typescript" ? "program" : (values.format ?? "program");
  if (format !== "program" && format !== "json" && format !== "pulumi-import") {
    throw new Error(`--format must be program, json or pulumi-import; got "${format}"`);
  }
  const language = values.format === "typescript" ? "typescript" : (values.language ?? "typescript");
  if (!isLanguage(language)) {
    throw new Error(`--language must be ${LANGUAGES.join(", ")}; got "${language}"`);
  }
  if (values.language !== undefined && values.format === "typescript") {
    throw new Error("--format typescript is the older spelling of --language typescript: leave out --format");
  }
  if (values.language !== undefined && format !== "program") {
    throw new Error(`--language is for a program; --format ${format} writes none`);
  }
  if (values.stack !== undefined && format !== "program") {
    throw new Error(
      `--stack names the stack of the secret commands printed with a program; --format ${format} writes none`,
    );
  }
  const stack = values.stack ?? DEFAULT_STACK;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(stack))
    throw new Error(`--stack must be a stack name (letters, digits, ".", "_" or "-"); got "${stack}"`);
  if (values.split && format !== "program") {
    throw new Error(`--split writes one program per organisation; --format ${format} writes none`);
  }

  const kinds = new Set<Kind>();
  for (const k of (values.kinds ?? KINDS.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const kind = KINDS.find((known) => known.toLowerCase() === k.toLowerCase());
    if (!kind) throw new Error(`--kinds: unknown kind "${k}"; the kinds are ${KINDS.join(", ")}`);
    kinds.add(kind);
  }
  const repos = new Set<string>();
  for (const r of values.repo ?? []) {
    if (!/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(r))
      throw new Error(`--repo must be OWNER/NAME; got "${r}"`);
    repos.add(r.toLowerCase());
  }
  // Logins are compared without case on the server: the same organisation given twice (or in
  // another case) is read once, under the spelling given first.
  const orgs: string[] = [];
  for (const org of [...(values.org ?? []), ...[...repos].map((r) => r.split("/")[0] ?? "")]) {
    if (!orgs.some((o) => o.toLowerCase() === org.toLowerCase())) orgs.push(org);
  }
  for (const name of [...orgs, ...(values.enterprise ? [values.enterprise] : [])]) {
    // A letter or digit first: a name is a folder with --split, never `..` or a hidden one.
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name))
      throw new Error(
        `--org, --enterprise and --repo's owner take names such as acme-eng (a letter or digit, then letters, digits, ".", "_" or "-"); got "${name}"`,
      );
  }
  if (orgs.length === 0 && values.enterprise === undefined && !values["site-admin"] && !values.user) {
    throw new Error("nothing to read: give --org NAME, --enterprise SLUG, --site-admin or --user");
  }
  const project = values.project ?? "hosting";
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(project))
    throw new Error(`--project must be a project name; got "${project}"`);
  return {
    scope: {
      orgs: orgs.sort((a, b) => a.localeCompare(b)),
      enterprise: values.enterprise,
      siteAdmin: values["site-admin"] === true,
      user: values.user === true,
      repos,
      kinds,
    },
    out: resolve(values.out ?? "hosting-program"),
    force: values.force === true,
    format,
    language,
    baseUrl: values["base-url"],
    project,
    library: values.library,
    split: values.split === true,
    stack,
  };
}

/**
 * Readable names from what identifies the object for a person, from the shortest to the most
 * specific, as the kind declares them (`discovery.names`); collisions past the last get `-2`, `-3`,
 * ... (naming.ts).
 */
export function nameCandidates(item: InventoryItem): string[] {
  const module = moduleFile(item.module);
  const templates = providerOf(item.kind)?.declared.discovery?.names ?? [];
  const names = templates.map((t) => nameFrom(t, item, module));
  return names.length > 0 ? names : [slug(`${module}-${item.kind}-${item.id}`)];
}

function sortItems(items: InventoryItem[]): InventoryItem[] {
  return [...items].sort(
    (x, y) =>
      moduleFile(x.module).localeCompare(moduleFile(y.module)) ||
      x.kind.localeCompare(y.kind) ||
      x.name.localeCompare(y.name),
  );
}

/**
 * What the written program depends on unless `--library` says otherwise: the spec this package was
 * installed from, as npm recorded it in the lockfile of the project it is installed in (a tarball
 * or folder as an absolute `file:` path, a git URL with its commit), or its registry version. Run
 * from a checkout, the checkout itself (with a warning: npm links a folder).
 */
export function installedSpec(io: Pick<Io, "err">, packageDir = ownPackageDir()): string {
  const version = ownVersion();
  if (packageDir === undefined) return version;
  const parts = packageDir.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) {
    io.err(
      `warning: hosting-import runs from a checkout; the program depends on file:${packageDir} (npm links a folder: for real stacks pass --library with a tarball or a git URL)`,
    );
    return `file:${packageDir}`;
  }
  const project = parts.slice(0, at).join(sep) || sep;
  const key = parts.slice(at).join("/");
  for (const lock of [
    join(project, "node_modules", ".package-lock.json"),
    join(project, "package-lock.json"),
  ]) {
    if (!existsSync(lock)) continue;
    const entry = (JSON.parse(readFileSync(lock, "utf8")) as LockFile).packages?.[key];
    const resolved = entry?.resolved;
    if (resolved === undefined) continue;
    if (resolved.startsWith("file:")) return `file:${resolve(project, resolved.slice("file:".length))}`;
    if (/^(git\+|git:|github:|https?:\/\/.*\.git)/.test(resolved)) return resolved;
    if (entry?.link === true) return `file:${resolve(project, resolved)}`;
    return entry?.version ?? version;
  }
  return version;
}

interface LockFile {
  packages?: Record<string, { resolved?: string; version?: string; link?: boolean }>;
}

/** This package's version. */
function ownVersion(): string {
  return ownPackage().version ?? "0.0.0";
}

/** The versions of the program's other dependencies: those this package is built and tested with. */
function programVersions(): { pulumiVersion: string; typescriptVersion: string; nodeTypesVersion: string } {
  const own = ownPackage();
  return {
    pulumiVersion:
      own.devDependencies?.["@pulumi/pulumi"] ?? own.peerDependencies?.["@pulumi/pulumi"] ?? "^3",
    typescriptVersion: own.devDependencies?.typescript ?? "^5",
    nodeTypesVersion: own.devDependencies?.["@types/node"] ?? "^22",
  };
}

interface PackageJson {
  name?: string;
  version?: string;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** This package's folder: the nearest one above this file (dist/importer or importer/) named pulumi-hosting. */
function ownPackageDir(): string | undefined {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (
      existsSync(path) &&
      (JSON.parse(readFileSync(path, "utf8")) as PackageJson).name === "pulumi-hosting"
    ) {
      return dir;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** This package's package.json. */
function ownPackage(): PackageJson {
  const dir = ownPackageDir();
  return dir === undefined
    ? {}
    : (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson);
}
