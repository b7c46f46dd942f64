/**
 * The fleet's TypeScript projects type-checked once per run, before any stack starts, instead of
 * once per stack. Pulumi runs a TypeScript program through ts-node, which type-checks it on its
 * first run on a machine (then keeps the output in the temporary folder): about 2 CPU-s for a
 * project `hosting-import --split` writes, most of it reading the declarations of @pulumi/pulumi,
 * this library and Node.js. A CI job starts with an empty temporary folder, so a drift job of 40
 * stacks paid it 40 times. Here the projects whose compiler options are the same are checked as
 * one TypeScript program, which reads those declarations once; a project with an error is reported
 * with it and not run, and the others run with `PULUMI_NODEJS_TRANSPILE_ONLY=true` (ts-node then
 * only transpiles, as `@pulumi/pulumi` documents for programs checked by a build step).
 *
 * A project is checked here when its Pulumi.yaml names the nodejs runtime, its folder has a
 * tsconfig.json that parses, and `typescript` resolves from its folder (the compiler its program
 * runs with). Any other project runs as before, checked by ts-node.
 *
 * A check that passed is remembered per project, as ts-node remembers its output: in
 * `.cache/hosting-fleet/` of the `node_modules` the compiler is in, the digest of every file the
 * check read (the projects' sources and every declaration file) with the compiler's version and
 * options. The next run whose files all give the same digest passes the project without checking
 * (about 30 ms to read them, against 2 s), whichever other projects it runs: a shard of a drift
 * job finds the projects that the fleet's `up` checked in the same checkout.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import type * as TypeScript from "typescript";
import { type Project, projectFile } from "./discover";

/** The environment of a stack whose program was checked here: ts-node transpiles only. */
export const TRANSPILE_ONLY = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } as const;

export interface TypeCheck {
  /** Folders of the projects checked here with no error: their programs run transpiled only. */
  passed: ReadonlySet<string>;
  /** Folders of the projects checked here with errors, and the errors as tsc prints them. */
  failed: ReadonlyMap<string, string>;
}

interface Member {
  project: Project;
  files: string[];
}

interface Group {
  ts: typeof TypeScript;
  compiler: string;
  options: TypeScript.CompilerOptions;
  members: Member[];
}

/**
 * Checks the TypeScript projects among `projects`, one program per compiler and set of options.
 * Passing checks are remembered in `cacheDir` when given, else beside each compiler.
 */
export function typeCheck(projects: readonly Project[], cacheDir?: string): TypeCheck {
  const groups = new Map<string, Group>();
  for (const project of projects) {
    const found = configOf(project);
    if (found === undefined) continue;
    // The options name the file they came from: projects with otherwise equal options share a group.
    const { configFilePath: _file, ...options } = found.options;
    const key = `${found.compiler}\0${found.ts.version}\0${JSON.stringify(options)}`;
    const group = groups.get(key) ?? {
      ts: found.ts,
      compiler: found.compiler,
      options: { ...options, noEmit: true },
      members: [],
    };
    group.members.push({ project, files: found.files });
    groups.set(key, group);
  }
  const passed = new Set<string>();
  const failed = new Map<string, string>();
  for (const [key, { ts, compiler, options, members }] of groups) {
    // A stamp per project, so that a run of some of them (a shard) finds those a run of all of
    // them checked.
    const stampOf = (project: Project) => stampFile(compiler, `${key}\0${project.dir}`, cacheDir);
    const unchecked = members.filter(({ project }) => {
      if (!stillPassing(stampOf(project))) return true;
      passed.add(project.dir);
      return false;
    });
    if (unchecked.length === 0) continue;
    const program = ts.createProgram({ rootNames: unchecked.flatMap((m) => m.files), options });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.category === ts.DiagnosticCategory.Error);
    // Every file the check read, the other projects' too: a change to any of them checks again.
    const read = program.getSourceFiles().map((f) => f.fileName);
    for (const { project } of unchecked) {
      // A project's own errors, and those of no project's file (the options, a declaration file
      // shared by all): each project would have failed on them.
      const own = errors.filter((d) => {
        const file = d.file?.fileName;
        return (
          file === undefined ||
          !unchecked.some((m) => inside(m.project.dir, file)) ||
          inside(project.dir, file)
        );
      });
      if (own.length === 0) {
        passed.add(project.dir);
        remember(stampOf(project), read);
        continue;
      }
      failed.set(
        project.dir,
        ts.formatDiagnostics(own, {
          getCanonicalFileName: (name) => name,
          getCurrentDirectory: () => project.dir,
          getNewLine: () => "\n",
        }),
      );
    }
  }
  return { passed, failed };
}

/** The compiler, options and files of a TypeScript project, or undefined where it is not one. */
function configOf(
  project: Project,
):
  | { ts: typeof TypeScript; compiler: string; options: TypeScript.CompilerOptions; files: string[] }
  | undefined {
  const config = join(project.dir, "tsconfig.json");
  if (!existsSync(config) || !nodejsRuntime(project.dir)) return undefined;
  let compiler: string;
  let ts: typeof TypeScript;
  try {
    const require = createRequire(join(project.dir, "package.json"));
    compiler = require.resolve("typescript");
    ts = require(compiler) as typeof TypeScript;
  } catch {
    return undefined;
  }
  let problem = false;
  const parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {
      problem = true;
    },
  });
  // A configuration that does not parse is left to ts-node, which says what is wrong with it.
  if (problem || parsed === undefined || parsed.errors.length > 0 || parsed.fileNames.length === 0) {
    return undefined;
  }
  // Where `types` are looked for: by default the node_modules/@types folders above the tsconfig,
  // which a program without it would look for above the current folder. Only those that exist:
  // the projects of one fleet then have the same ones, and share a program.
  const typeRoots =
    parsed.options.typeRoots ??
    ts
      .getEffectiveTypeRoots(parsed.options, { getCurrentDirectory: () => project.dir })
      ?.filter((dir) => ts.sys.directoryExists(dir));
  return {
    ts,
    compiler,
    options: { ...parsed.options, ...(typeRoots ? { typeRoots } : {}) },
    files: parsed.fileNames,
  };
}

/**
 * Whether the project's program runs through ts-node: its Pulumi.yaml names the nodejs runtime
 * (`runtime: nodejs` or its `name:`) without `typescript: false`, and no other tsconfig is given to
 * it (`PULUMI_NODEJS_TSCONFIG_PATH`).
 */
function nodejsRuntime(dir: string): boolean {
  const file = projectFile(dir);
  if (file === undefined || process.env.PULUMI_NODEJS_TSCONFIG_PATH) return false;
  const text = readFileSync(file, "utf8");
  return (
    /^runtime:[ \t]*(?:nodejs\b|\r?\n[ \t]+name:[ \t]*nodejs\b)/m.test(text) &&
    !/^[ \t]+typescript:[ \t]*false\b/m.test(text)
  );
}

function inside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith("/");
}

/** What a passing check read, and the digest of those files as they were. */
interface Stamp {
  files: string[];
  digest: string;
}

/** The stamp of a project: in `cacheDir`, else `node_modules/.cache/hosting-fleet/` of the compiler. */
function stampFile(compiler: string, key: string, cacheDir: string | undefined): string | undefined {
  const name = `typecheck-${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`;
  if (cacheDir !== undefined) return join(cacheDir, name);
  const at = compiler.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  return join(compiler.slice(0, at + "node_modules".length), ".cache", "hosting-fleet", name);
}

/** The digest of files' paths and bytes; undefined when one cannot be read. */
function digestOf(files: readonly string[]): string | undefined {
  const hash = createHash("sha256");
  try {
    for (const file of files) {
      const bytes = readFileSync(file);
      hash.update(`${file}\0${bytes.length}\0`).update(bytes);
    }
  } catch {
    return undefined;
  }
  return hash.digest("hex");
}

/** Whether the project passed before and none of the files its check read has changed since. */
function stillPassing(stamp: string | undefined): boolean {
  if (stamp === undefined || !existsSync(stamp)) return false;
  try {
    const recorded = JSON.parse(readFileSync(stamp, "utf8")) as Partial<Stamp>;
    return (
      Array.isArray(recorded.files) &&
      recorded.digest !== undefined &&
      digestOf(recorded.files) === recorded.digest
    );
  } catch {
    return false;
  }
}

/** Records a passing check (written whole or not at all); a folder that cannot be written skips it. */
function remember(stamp: string | undefined, files: readonly string[]): void {
  const digest = digestOf(files);
  if (stamp === undefined || digest === undefined) return;
  try {
    mkdirSync(dirname(stamp), { recursive: true });
    const temporary = `${stamp}.${randomUUID()}.tmp`;
    writeFileSync(temporary, JSON.stringify({ files: [...files], digest } satisfies Stamp));
    renameSync(temporary, stamp);
  } catch {
    // The check is done; only the next run's shortcut is lost.
  }
}
