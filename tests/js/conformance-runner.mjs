// Runs the conformance cases through the npm package, producing the same outcome shape as the
// native runner (tests/lib.rs `run_case`). Used in Node and, unchanged, in the browser.

/** JSON with object keys sorted at every level: the form in which outcomes are compared. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

function errorOutcome(error) {
  if (error && typeof error.code === "string") {
    return { error: { code: error.code, message: error.message } };
  }
  return { error: { code: "UNEXPECTED", message: String(error?.stack ?? error) } };
}

/** The outcome of one case through the package `api`. */
export async function runCase(api, testCase) {
  const input = testCase.input;
  const limits = input.limits ?? input.options?.limits;
  try {
    switch (testCase.operation) {
      case "resolve": {
        const options = { ...(input.options ?? {}), templates: input.templates ?? [], provenance: true };
        if (limits) options.limits = limits;
        const { output, provenance } = await api.resolve(input.job, options);
        return { output, provenance };
      }
      case "test": {
        const request = input.request;
        const output = api.testTemplate(
          request.template,
          { values: request.input?.values ?? {}, isDraft: request.input?.isDraft ?? false },
          { checkValidJobGraph: request.checkValidJobGraph ?? false, user: input.user ?? "anonymous", limits },
        );
        return { output };
      }
      case "validate":
        return { problems: api.validateJobGraph(input.graph) };
      case "parseEdge":
        return { output: api.formatEdge(api.parseEdge(input.text)) };
      default:
        return { error: { code: "UNKNOWN_OPERATION", message: testCase.operation } };
    }
  } catch (error) {
    return errorOutcome(error);
  }
}

/** Runs every case; returns `{name: outcome}`. */
export async function runAll(api, cases) {
  const outcomes = {};
  for (const testCase of cases) outcomes[testCase.name] = await runCase(api, testCase);
  return outcomes;
}

/** Compares outcomes with the native ones; returns the list of differences. */
export function compare(native, actual) {
  const differences = [];
  for (const [name, expected] of Object.entries(native)) {
    if (!(name in actual)) differences.push(`${name}: not run`);
    else if (canonical(expected) !== canonical(actual[name])) {
      differences.push(`${name}:\n  native: ${canonical(expected)}\n  wasm:   ${canonical(actual[name])}`);
    }
  }
  return differences;
}
