// Checks the npm package's hand-written declarations (pkg/*.d.ts, pkg/index.d.cts) against its
// JavaScript, so that neither can drift from the other. Run by scripts/test.sh after
// scripts/build-pkg.sh (the JavaScript is checked against wasm-bindgen's declarations of the
// modules, pkg/wasm/*.d.ts).
//
// 1. The JavaScript the package ships (the "files" of pkg/package.json) is type-checked
//    (`checkJs`, with its JSDoc) and TypeScript generates its declarations. This runs on a copy in
//    target/pkg-types/js/: beside the hand-written .d.ts, TypeScript would read those instead of
//    the .js (a `.d.ts` wins over a `.js` of the same name).
// 2. For every entry of "exports" that has "types", and each JavaScript file it maps to:
//    - the values the .d.ts declares and those the .js exports are the same names, both ways;
//    - each class's instances, and each object a function returns (`createResolver()`,
//      `createWorkerResolver()`, …, through promises), have the same members, both ways, down
//      to the objects their methods return;
//    - each exported value of the .js is assignable to its declaration (arity, and every type
//      the JSDoc gives), checked by TypeScript in target/pkg-types/check.ts, whose errors
//      explain the difference. Parameters are compared bivariantly (`strictFunctionTypes`
//      off): an untyped JavaScript parameter is `any`.
// Types-only declarations (interfaces, type aliases) have no JavaScript to check.
//
// Usage: node scripts/check-pkg-types.mjs   (exit 1 and a list of differences on any drift)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repo = fileURLToPath(new URL("../", import.meta.url));
const pkg = join(repo, "pkg");
const out = join(repo, "target/pkg-types");
const copy = join(out, "js");
const generated = join(out, "actual");
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));

/** Paths in messages: the package's own, not the copy's. */
function shown(text) {
  return text.split(copy + "/").join("pkg/").split(generated + "/").join("<declarations generated from pkg/>").split(repo).join("");
}

const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => repo, getNewLine: () => "\n" };
function report(diagnostics) {
  return shown(ts.formatDiagnostics(diagnostics, host));
}

// 1. The shipped JavaScript, copied, checked and declared.
rmSync(out, { recursive: true, force: true });
mkdirSync(copy, { recursive: true });
const scripts = [];
for (const file of manifest.files) {
  if (!/\.c?js$/.test(file)) continue;
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  const factory = /^wasm\/(.+)_factory\.js$/.exec(file);
  if (factory) {
    // wasm-bindgen's glue, wrapped by scripts/glue-factory.mjs: its bindings are the glue's.
    const glue = join(pkg, "wasm", `${factory[1]}.d.ts`);
    if (!existsSync(glue)) {
      console.error(`${relative(repo, glue)} is missing: build the package first (bash scripts/build-pkg.sh)`);
      process.exit(1);
    }
    cpSync(glue, join(copy, "wasm", `${factory[1]}.d.ts`));
    writeFileSync(join(copy, file.replace(/\.js$/, ".d.ts")), `export function createBindings(): typeof import("./${factory[1]}.js");\n`);
    continue;
  }
  cpSync(join(pkg, file), join(copy, file));
  scripts.push(join(copy, file));
}
writeFileSync(join(copy, "package.json"), JSON.stringify({ type: manifest.type }));
// The few Node APIs the package uses (the package has no dependency on @types/node).
writeFileSync(
  join(copy, "node-builtins.d.ts"),
  `declare module "node:fs/promises" {
  export function readFile(path: URL | string): Promise<Uint8Array>;
}
declare module "node:worker_threads" {
  export class Worker {
    constructor(url: URL | string, options?: { workerData?: unknown });
    postMessage(message: unknown): void;
    on(event: "message" | "error" | "exit" | "messageerror", listener: (value: any) => void): this;
    terminate(): Promise<number>;
  }
  export const parentPort: { postMessage(message: unknown): void; on(event: "message", listener: (value: any) => void): void };
  export const workerData: any;
}
`,
);
const common = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
  types: [],
};
const jsProgram = ts.createProgram([...scripts, join(copy, "node-builtins.d.ts")], {
  ...common,
  allowJs: true,
  checkJs: true,
  declaration: true,
  emitDeclarationOnly: true,
  outDir: generated,
  rootDir: copy,
  skipLibCheck: true,
});
const emitted = jsProgram.emit();
const jsErrors = [...ts.getPreEmitDiagnostics(jsProgram), ...emitted.diagnostics];
if (jsErrors.length > 0) {
  console.error(`The package's JavaScript does not type-check (checkJs):\n${report(jsErrors)}`);
  process.exit(1);
}

// 2. Each entry's declarations against its JavaScript.
/** [declarations, JavaScript, entry] for every file an entry with "types" maps to. */
const pairs = [];
function walk(entry, conditions, types) {
  if (typeof conditions === "string") {
    if (types && /\.c?js$/.test(conditions)) pairs.push([types, conditions, entry]);
    return;
  }
  const own = conditions.types ?? types;
  for (const [condition, target] of Object.entries(conditions)) if (condition !== "types") walk(entry, target, own);
}
for (const [entry, conditions] of Object.entries(manifest.exports)) walk(entry, conditions, undefined);
const unique = [...new Map(pairs.map((p) => [`${p[0]} ${p[1]}`, p])).values()];

/** The module specifier, from target/pkg-types/check.ts, of a declaration file. */
const specifier = (file) => "./" + relative(out, file).replace(/\.d\.ts$/, ".js").replace(/\.d\.cts$/, ".cjs");
const declaredFile = (types) => join(pkg, types);
const generatedFile = (script) => join(generated, script.replace(/\.js$/, ".d.ts").replace(/\.cjs$/, ".d.cts"));

const checkFile = join(out, "check.ts");
const imports = unique.flatMap(([types, script], i) => [
  `import type * as Declared${i} from ${JSON.stringify(specifier(declaredFile(types)))};`,
  `import type * as Actual${i} from ${JSON.stringify(specifier(generatedFile(script)))};`,
]);
const options = { ...common, strict: true, strictFunctionTypes: false, noEmit: true, skipLibCheck: true, noUnusedLocals: false };
writeFileSync(checkFile, imports.join("\n") + "\n");
const shapes = ts.createProgram([checkFile], options);
const checker = shapes.getTypeChecker();
const problems = [];
const loadErrors = ts.getPreEmitDiagnostics(shapes);
if (loadErrors.length > 0) {
  console.error(`The package's declarations do not load:\n${report(loadErrors)}`);
  process.exit(1);
}

/** The module symbols imported by check.ts, in order. */
const modules = shapes
  .getSourceFile(checkFile)
  .statements.filter(ts.isImportDeclaration)
  .map((declaration) => checker.getSymbolAtLocation(declaration.moduleSpecifier));

/** A module's exported values (classes, functions, constants), by name. */
function values(module) {
  const found = new Map();
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & ts.SymbolFlags.Value) found.set(symbol.name, target);
  }
  return found;
}

const hidden = (name) => name.startsWith("__#") || name.startsWith("#");
const isAny = (type) => (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;
const isObject = (type) => (type.flags & ts.TypeFlags.Object) !== 0;

/**
 * Compares the members of what `declared` and `actual` describe: a class's instances, the
 * object a function returns (awaited), an object's properties (recursively, `depth` levels).
 */
function compareShapes(declared, actual, where, depth, seen) {
  if (depth > 4 || isAny(actual) || isAny(declared)) return;
  const key = `${checker.typeToString(declared)}|${checker.typeToString(actual)}`;
  if (seen.has(key)) return;
  seen.add(key);
  for (const kind of [ts.SignatureKind.Construct, ts.SignatureKind.Call]) {
    const [d] = checker.getSignaturesOfType(declared, kind);
    const [a] = checker.getSignaturesOfType(actual, kind);
    if (!d || !a) continue;
    const result = (signature) => {
      const type = checker.getReturnTypeOfSignature(signature);
      return kind === ts.SignatureKind.Call ? (checker.getAwaitedType(type) ?? type) : type;
    };
    const suffix = kind === ts.SignatureKind.Construct ? " (its instances)" : "()";
    compareShapes(result(d), result(a), `${where}${suffix}`, depth + 1, seen);
  }
  const callable = (type) => checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 || checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0;
  if (!isObject(declared) || !isObject(actual) || callable(declared) || callable(actual)) return;
  if (checker.isArrayType(declared) || checker.isArrayType(actual) || (declared.flags & ts.TypeFlags.TypeParameter) !== 0) return;
  const names = (type) => new Set(checker.getPropertiesOfType(type).map((p) => p.name).filter((n) => !hidden(n)));
  const d = names(declared);
  const a = names(actual);
  for (const name of d) if (!a.has(name)) problems.push(`${where}: the declarations have \`${name}\`, the JavaScript does not`);
  for (const name of a) if (!d.has(name)) problems.push(`${where}: the JavaScript has \`${name}\`, the declarations do not`);
  for (const name of d) {
    if (!a.has(name)) continue;
    const dp = checker.getTypeOfSymbol(checker.getPropertyOfType(declared, name));
    const ap = checker.getTypeOfSymbol(checker.getPropertyOfType(actual, name));
    compareShapes(dp, ap, `${where}.${name}`, depth + 1, seen);
  }
}

const assignments = [];
unique.forEach(([types, script, entry], i) => {
  const declared = values(modules[2 * i]);
  const actual = values(modules[2 * i + 1]);
  const label = `"${entry}": pkg/${types.replace(/^\.\//, "")} against pkg/${script.replace(/^\.\//, "")}`;
  for (const name of declared.keys()) if (!actual.has(name)) problems.push(`${label}: \`${name}\` is declared, but the JavaScript does not export it`);
  for (const name of actual.keys()) if (!declared.has(name)) problems.push(`${label}: the JavaScript exports \`${name}\`, which is not declared`);
  for (const [name, symbol] of declared) {
    if (!actual.has(name)) continue;
    compareShapes(checker.getTypeOfSymbol(symbol), checker.getTypeOfSymbol(actual.get(name)), `${label}: ${name}`, 0, new Set());
    // TypeScript's own verdict, with its explanation, on one line named after the pair.
    const at = `pair${i}_${script.replace(/\W/g, "_")}__${name}`;
    assignments.push(`// ${label}: ${name}\nexport declare const ${at}_js: typeof Actual${i}[${JSON.stringify(name)}];\nexport const ${at}: typeof Declared${i}[${JSON.stringify(name)}] = ${at}_js;`);
  }
});

writeFileSync(checkFile, `// Generated by scripts/check-pkg-types.mjs: each value of the package's JavaScript, assigned to its declaration.\n${imports.join("\n")}\n\n${assignments.join("\n")}\n`);
const verdict = ts.createProgram([checkFile], options, undefined, shapes);
const typeErrors = ts.getPreEmitDiagnostics(verdict);
if (typeErrors.length > 0) problems.push(`values of the JavaScript not assignable to their declarations (target/pkg-types/check.ts):\n${report(typeErrors)}`);

if (problems.length > 0) {
  console.error(`The package's declarations and its JavaScript differ:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.error(`pkg types: ${unique.length} declaration/JavaScript pairs of ${Object.keys(manifest.exports).length} entries agree (${scripts.length} JavaScript files type-checked)`);
