// Runs the adversarial corpus (tests/adversarial/cases.json) through one API object of the npm
// package — the in-process module or a worker resolver — in Node or in a browser page (no Node
// imports here). After every case it makes a trivial call on the same object, which must
// succeed without a reload by hand. Checking the outcomes is the caller's (adversarial-check.mjs).

/** The limits of a case: the package's defaults, then the case's own. */
export const DEFAULTS = {
  timeoutMs: 1000,
  loopIterations: 10_000_000,
  recursionDepth: 256,
  maxOutputVertices: 10_000,
  maxOutputBytes: 8 * 1024 * 1024,
  maxNesting: 64,
  maxMemoryBytes: 256 * 1024 * 1024,
};

const TRIVIAL = {
  name: "trivial",
  template: "({vertices: [{type: 'logs-filter', name: 'f', query: {type: 'simple-query', query: q}}], edges: []})",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
};

/** The worker's kill time for a case: its time limit plus a quarter (as the native isolated mode). */
export function killMs(limits) {
  return Math.ceil(limits.timeoutMs * 1.25) + 10;
}

function plainError(error) {
  return {
    code: error?.code ?? "UNEXPECTED",
    message: String(error?.message ?? error),
    limit: error?.limit ?? null,
  };
}

/**
 * Runs `cases` (with `scripts[i]`: the source texts of case i, set-up scripts first) through
 * `target(c, limits)`, which returns the API object for a case (`resolve`, `testTemplate`).
 * Returns one row per case: `{name, outcome, ms, trivial}`, `outcome` `{ok, output}` or
 * `{ok: false, error: {code, message, limit}}`, `trivial` `null` when the trivial call after
 * the case gave the right graph, else what went wrong.
 */
export async function runCorpus(target, cases, scripts) {
  const rows = [];
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i];
    const limits = { ...DEFAULTS, ...(c.limits ?? {}) };
    const api = await target(c, limits);
    const run = async (script) => {
      const template = { id: "adv", version: 1, name: c.name, template: script, inputSchema: c.inputSchema ?? { type: "object" }, inputs: {}, outputs: {} };
      const job = { vertices: [{ type: "template-operation", name: "op", templateId: "adv", templateInputs: c.inputs ?? {} }], edges: [] };
      try {
        const { output } = await api.resolve(job, { templates: [template], limits });
        return { ok: true, output };
      } catch (error) {
        return { ok: false, error: plainError(error) };
      }
    };
    for (const script of scripts[i].slice(0, -1)) await run(script);
    const started = performance.now();
    const outcome = await run(scripts[i][scripts[i].length - 1]);
    const ms = performance.now() - started;
    let trivial = null;
    try {
      const graph = await api.testTemplate(TRIVIAL, { values: { q: c.name } });
      if (graph?.vertices?.[0]?.query?.query !== c.name) trivial = `wrong graph: ${JSON.stringify(graph).slice(0, 200)}`;
    } catch (error) {
      trivial = `failed: ${error?.code} ${error?.message}`;
    }
    rows.push({ name: c.name, outcome, ms: Math.round(ms * 10) / 10, trivial });
  }
  return rows;
}
