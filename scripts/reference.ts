/**
 * The README's resource reference, generated from each kind's own declarations, so it cannot fall
 * behind them: the resource class's TSDoc (what it is, its routes, the token it needs), its `XArgs`
 * interface (each argument's type, whether it is required, its TSDoc), the provider's input schema
 * (defaults) and field rules (what a change does, sets, secrets), its id parts, and the outputs the
 * class declares beyond its arguments.
 *
 * `npm run reference` rewrites each kind's block between `<!-- reference:Kind -->` and
 * `<!-- /reference:Kind -->` in README.md; `npm run reference -- --check` fails when one is stale
 * or missing (CI runs the check through the unit suite). Prose about a kind that is not a
 * declaration (drift, adoption, examples) stays outside the blocks, written by hand.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { PROVIDERS } from "../provider/providers";

/** The repository root: the folder of the package.json named pulumi-hosting above this file. */
export function repositoryRoot(from = __dirname): string {
  let dir = resolve(from);
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "pulumi-hosting")
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no pulumi-hosting package.json above ${from}`);
    dir = up;
  }
}

interface Declared {
  doc: string;
  args: Map<string, { type: string; optional: boolean; doc: string }>;
  outputs: Array<{ name: string; doc: string }>;
}

/** What the TypeScript declarations say of every kind: TSDoc, argument types, declared outputs. */
function readDeclarations(root: string, kinds: readonly string[]): Map<string, Declared> {
  const entry = join(root, "provider/index.ts");
  const program = ts.createProgram([entry], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read ${entry}`);
  const exported = new Map(
    checker.getExportsOfModule(moduleSymbol).map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return [s.name, target] as const;
    }),
  );
  const docOf = (symbol: ts.Symbol) =>
    oneLine(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
  const result = new Map<string, Declared>();
  for (const kind of kinds) {
    const cls = exported.get(kind);
    const args = exported.get(`${kind}Args`);
    if (!cls || !args) throw new Error(`provider/index.ts must export ${kind} and ${kind}Args`);
    const argProps = new Map<string, { type: string; optional: boolean; doc: string }>();
    for (const p of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(args))) {
      const decl = p.valueDeclaration;
      const typeNode = decl && ts.isPropertySignature(decl) ? decl.type : undefined;
      argProps.set(p.name, {
        type: typeNode ? typeText(checker, typeNode) : "",
        optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
        doc: docOf(p),
      });
    }
    const outputs = checker
      .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(cls))
      .filter((p) => !argProps.has(p.name) && declaredUnder(p, join(root, "provider")))
      .map((p) => ({ name: p.name, doc: docOf(p) }));
    result.set(kind, { doc: docOf(cls), args: argProps, outputs });
  }
  return result;
}

/** Declared in this package's provider sources (not inherited from Pulumi's resource classes). */
function declaredUnder(p: ts.Symbol, dir: string): boolean {
  return (p.declarations ?? []).some((d) => d.getSourceFile().fileName.startsWith(dir));
}

/**
 * A declared argument type as a reader writes it: `pulumi.Input<...>` unwrapped, and a named union
 * of string literals (`BudgetScope`) spelt out, so the reference lists the values allowed.
 */
function typeText(checker: ts.TypeChecker, node: ts.TypeNode): string {
  if (ts.isTypeReferenceNode(node) && node.typeName.getText() === "pulumi.Input" && node.typeArguments?.[0]) {
    return typeText(checker, node.typeArguments[0]);
  }
  if (ts.isArrayTypeNode(node)) {
    const element = typeText(checker, node.elementType);
    return element.includes("|") ? `(${element})[]` : `${element}[]`;
  }
  if (ts.isTypeReferenceNode(node)) {
    const type = checker.getTypeFromTypeNode(node);
    if (type.isUnion() && type.types.every((t) => t.isStringLiteral())) {
      // Sorted: the checker's union order is an implementation detail that may change between versions.
      const values = type.types.map((t) => (t as ts.StringLiteralType).value).sort();
      return values.map((v) => JSON.stringify(v)).join(" | ");
    }
  }
  return oneLine(node.getText());
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The schema's default for a field left out, as the program would write it; undefined when none. */
function defaultOf(provider: AnyHostingProvider, name: string): string | undefined {
  const field = provider.declared.inputs.shape[name] as
    | { safeParse(v: unknown): { success: boolean; data?: unknown } }
    | undefined;
  const parsed = field?.safeParse(undefined);
  if (!parsed?.success || parsed.data === undefined) return undefined;
  return Array.isArray(parsed.data)
    ? `[${parsed.data.map((v) => JSON.stringify(v)).join(", ")}]`
    : JSON.stringify(parsed.data);
}

function onChange(provider: AnyHostingProvider, name: string): string {
  const rule = provider.declared.rules[name];
  if (rule === undefined) return "not compared";
  if (rule.refusedAfterCreate) return "refused after create";
  if (rule.createOnly) return "ignored after create";
  if (rule.replace) return "**replaces**";
  return "updates";
}

/** One kind's block: what it is, its arguments, its outputs and its id. */
export function renderKind(provider: AnyHostingProvider, declared: Declared): string {
  const kind = provider.kind;
  const names = [
    ...Object.keys(provider.declared.inputs.shape),
    ...[...declared.args.keys()].filter((n) => !(n in provider.declared.inputs.shape)),
  ].filter((n) => declared.args.has(n));
  const rows = names.map((name) => {
    const arg = declared.args.get(name);
    if (!arg) throw new Error(`${kind}Args has no ${name}`);
    const rule = provider.declared.rules[name];
    const type = [
      `\`${cell(arg.type)}\``,
      rule?.set ? "compared as a set" : "",
      rule?.secret ? "a secret in state" : "",
    ]
      .filter(Boolean)
      .join("; ");
    const fallback = defaultOf(provider, name);
    return `| \`${name}\`${arg.optional ? "" : " (required)"} | ${type} | ${fallback ? `\`${cell(fallback)}\`` : ""} | ${onChange(provider, name)} | ${cell(arg.doc)} |`;
  });
  const outputs =
    declared.outputs.length === 0
      ? "No outputs beyond the arguments."
      : [
          "Outputs beyond the arguments:",
          "",
          ...declared.outputs.map((o) => `- \`${o.name}\`${o.doc ? `: ${o.doc}` : ""}`),
        ].join("\n");
  return [
    `### ${kind}`,
    "",
    declared.doc,
    "",
    "| Argument | Type | Default | On change | Description |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    outputs,
    "",
    `**id**: \`${provider.declared.idFormat.join("/")}\`${provider.declared.idFormat.length > 1 ? ", each part URL-encoded" : ""}.`,
  ].join("\n");
}

const open = (kind: string) => `<!-- reference:${kind} -->`;
const close = (kind: string) => `<!-- /reference:${kind} -->`;

/** The README with every kind's block regenerated; fails when a kind has no block. */
export function regenerate(readme: string, root = repositoryRoot()): string {
  const declared = readDeclarations(
    root,
    PROVIDERS.map((p) => p.kind),
  );
  let text = readme;
  for (const provider of PROVIDERS) {
    const start = text.indexOf(open(provider.kind));
    const end = text.indexOf(close(provider.kind));
    if (start < 0 || end < start) {
      throw new Error(`README.md has no ${open(provider.kind)} ... ${close(provider.kind)} block`);
    }
    const block = renderKind(provider, declared.get(provider.kind) as Declared);
    text = `${text.slice(0, start)}${open(provider.kind)}\n\n${block}\n\n${text.slice(end)}`;
  }
  return text;
}

function main(): void {
  const root = repositoryRoot();
  const path = join(root, "README.md");
  const current = readFileSync(path, "utf8");
  const next = regenerate(current, root);
  if (process.argv.includes("--check")) {
    if (next !== current) {
      console.error("README.md's resource reference is out of date: run npm run reference");
      process.exit(1);
    }
    console.log("README.md's resource reference is current");
    return;
  }
  writeFileSync(path, next);
  console.log(
    next === current
      ? "README.md's resource reference was current"
      : "README.md's resource reference regenerated",
  );
}

if (require.main === module) main();
