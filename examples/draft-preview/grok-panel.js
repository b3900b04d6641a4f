// Grok mode of the draft preview: parsing rules, helper rules and sample lines, parsed again on
// every keystroke with `parseGrok` of `jobgraph/grok` (the grok engine in its own WebAssembly module,
// loaded when the tab first opens: the engine of `POST /v1/grok/parse/batch`, here in the page). Per sample: matched or not, by which rule, and
// the attributes, tags and top-level fields it extracted. A rule that does not compile is shown
// with its line and column, and the textarea's caret can jump there.
//
// Hostile rules stay bounded: each sample may take LINE_MS, all of them BATCH_MS (the engine
// stops catastrophic backtracking there), so a keystroke never freezes the page for longer.
import { $, el, fill, pretty } from "./dom.js";

const LINE_MS = 50;
const BATCH_MS = 300;

/** Rules, helpers and samples the panel opens with: an access log and a login line. */
const EXAMPLE = {
  rules: [
    'access %{ipOrHost:network.client.ip} %{notSpace:http.ident} %{notSpace:http.auth} \\[%{date("dd/MMM/yyyy:HH:mm:ss Z"):eventTimestamp}\\] "%{word:http.method} %{notSpace:http.url} HTTP/%{number:http.version}" %{integer:http.status_code} %{integer:network.bytes_written}',
    "login %{user} connected on %{date(\"MM/dd/yyyy\"):date} from %{ipv4:network.client.ip}",
    "level %{word:tags.level:lowercase} %{data:msg}",
  ].join("\n"),
  helpers: "user %{word:user.name}",
  samples: [
    '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
    "john connected on 11/08/2017 from 192.168.1.10",
    "ERROR disk full on /var",
    "-- no rule matches this line",
  ].join("\n"),
};

/**
 * The grok mode: `activate()` when its tab is chosen. `loadGrok` imports `jobgraph/grok` (the
 * grok engine's own WebAssembly module), the first time the tab opens.
 */
export function createGrokPanel(loadGrok, setStatus) {
  const ui = {
    rules: $("#grok-rules"),
    helpers: $("#grok-helpers"),
    samples: $("#grok-samples"),
    rulesError: $("#grok-rules-error"),
    results: $("#grok-results"),
    summary: $("#grok-summary"),
    reset: $("#grok-example"),
  };
  let started = false;
  let frame = 0;
  let grok = null;

  function example() {
    ui.rules.value = EXAMPLE.rules;
    ui.helpers.value = EXAMPLE.helpers;
    ui.samples.value = EXAMPLE.samples;
    schedule();
  }

  function schedule() {
    cancelAnimationFrame(frame);
    if (grok) frame = requestAnimationFrame(update);
  }

  /** Puts the caret of the rules (or helpers) textarea at `line:column` (1-based). */
  function jump(textarea, line, column) {
    const lines = textarea.value.split("\n");
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    offset += Math.max(0, column - 1);
    textarea.focus();
    textarea.setSelectionRange(offset, offset + 1);
  }

  function showRuleError(error) {
    // INVALID_GROK_RULE carries the field (`pointer`), line and column of the rule.
    const target = error.pointer === "/grokParser/grokHelperRules" ? ui.helpers : ui.rules;
    const where = error.line ? [null, error.line, error.column ?? 1] : null;
    ui.rulesError.hidden = false;
    fill(
      ui.rulesError,
      el("span", { text: error.message }),
      where
        ? el("button", { type: "button", class: "small-button", text: "Go to the column", onclick: () => jump(target, Number(where[1]), Number(where[2])) })
        : null,
    );
    target.setAttribute("aria-invalid", "true");
    ui.results.classList.add("stale");
    ui.summary.textContent = "The rules do not compile: the results below are the last good ones.";
    ui.summary.dataset.kind = "error";
  }

  function clearRuleError() {
    ui.rulesError.hidden = true;
    fill(ui.rulesError);
    ui.rules.removeAttribute("aria-invalid");
    ui.helpers.removeAttribute("aria-invalid");
    ui.results.classList.remove("stale");
  }

  function sampleView(sample, result, index) {
    const fields = [
      ["attributes", result.attributes],
      ["tags", result.tags],
      ["top-level fields", result.topLevelFields],
    ].filter(([, value]) => value && Object.keys(value).length);
    return el(
      "li",
      { class: ["grok-sample", result.match ? "matched" : "unmatched"], "data-index": index, "data-match": String(result.match) },
      el(
        "div",
        { class: "grok-sample-head" },
        el("span", { class: ["pill", result.match ? "pill-ok" : "pill-miss"], text: result.match ? "match" : "no match" }),
        result.matchingRuleName ? el("span", { class: "grok-rule", text: result.matchingRuleName }) : null,
        el("code", { class: "grok-line", text: sample }),
      ),
      result.error ? el("p", { class: "field-error", text: result.error }) : null,
      ...fields.map(([name, value]) => el("div", { class: "grok-field" }, el("span", { class: "grok-field-name", text: name }), el("pre", { class: "code", text: pretty(value) }))),
    );
  }

  function update() {
    const samples = ui.samples.value.split("\n").filter((line) => line.trim() !== "");
    const request = {
      grokParser: { type: "grok-parser", grokParsingRules: ui.rules.value, grokHelperRules: ui.helpers.value },
      logSamples: samples,
    };
    const started = performance.now();
    let response;
    try {
      response = grok.parseGrok(request, { lineTimeLimitMs: LINE_MS, batchTimeLimitMs: BATCH_MS });
    } catch (error) {
      showRuleError(error);
      setStatus("error", "The grok rules do not compile");
      return;
    }
    const ms = performance.now() - started;
    clearRuleError();
    fill(ui.results, response.results.map((result, i) => sampleView(samples[i], result, i)));
    const matched = response.results.filter((r) => r.match).length;
    ui.summary.dataset.kind = matched === samples.length ? "ok" : "partial";
    ui.summary.textContent = samples.length
      ? `Matched ${matched} of ${samples.length} samples (${((100 * matched) / samples.length).toFixed(1)}%) in ${ms.toFixed(1)} ms`
      : "No sample lines yet: add some below the rules.";
    ui.results.dataset.ms = ms.toFixed(2);
    setStatus("ready", `Grok: ${matched} of ${samples.length} samples matched`);
  }

  for (const area of [ui.rules, ui.helpers, ui.samples]) area.addEventListener("input", schedule);
  ui.reset.addEventListener("click", example);

  return {
    async activate() {
      if (!grok) {
        setStatus("busy", "Loading the grok engine…");
        try {
          grok = await loadGrok();
        } catch (error) {
          setStatus("error", `Could not load jobgraph/grok: ${error.message}`);
          return;
        }
      }
      if (!started) {
        started = true;
        example();
      } else schedule();
    },
  };
}
