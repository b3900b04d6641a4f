// The grok conformance cases (tests/conformance/grok/*.json) through the package, in the shape
// `conformance-outcomes grok` prints natively: keyed `file#index`, each the answer's JSON text
// exactly as the engine wrote it (`parseGrok(…, {text: true})`), or `{error}` with the message
// of a rule that does not compile. Runs in Node and in the browser.

/** The request of one case: its rules, its helpers, its one sample. */
export const requestOf = (c) => ({
  grokParser: { type: "grok-parser", grokParsingRules: c.rules, ...(c.helpers === undefined ? {} : { grokHelperRules: c.helpers }) },
  logSamples: [c.sample],
});

/** Every case's outcome. */
export function grokOutcomes(api, files) {
  const out = {};
  for (const { file, cases } of files) {
    cases.forEach((c, i) => {
      try {
        out[`${file}#${i}`] = api.parseGrok(requestOf(c), { text: true });
      } catch (error) {
        out[`${file}#${i}`] = { error: error?.message ?? String(error) };
      }
    });
  }
  return out;
}
