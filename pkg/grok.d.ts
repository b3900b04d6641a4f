// Types of `jobgraph/grok`: the grok engine in its own WebAssembly module.
import type { Json } from "./index.js";

export { JobgraphError } from "./index.js";

/** The rules `parseGrok` tries: the fields of a `grok-parser` vertex. */
export interface GrokParser {
  name?: string;
  /**
   * One `RuleName pattern` per item (the public service's shape), or one string with a rule per
   * line; the first rule that matches the whole line wins.
   */
  grokParsingRules: string[] | string;
  /** `name pattern` per item (or per line), usable as `%{name}` in the rules. */
  grokHelperRules?: string[] | string;
  extractAttribute?: string;
  type?: "grok-parser";
}

/** What the rules made of one sample. */
export interface GrokSampleResult {
  match: boolean;
  matchingRuleName?: string;
  attributes: { [key: string]: Json };
  tags: { [key: string]: string[] };
  /** `severity` and `eventTimestamp` when extracted. */
  topLevelFields: { [key: string]: Json };
  /** Why the sample was not parsed (a time limit). */
  error?: string;
}

/** Time limits of `parseGrok`. */
export interface GrokOptions {
  /** Per sample, all rules together; default 100. */
  lineTimeLimitMs?: number;
  /** All samples together; default 5000. */
  batchTimeLimitMs?: number;
}

/**
 * Tries grok rules on sample lines, as `POST /v1/grok/parse/batch` does; throws
 * `INVALID_GROK_RULE` when a rule does not compile, with the rule's `pointer`
 * (`/grokParser/grokParsingRules/2` for the third item of an array), `line` and `column`.
 */
export declare function parseGrok(
  request: { grokParser: GrokParser; logSamples: string[] },
  options?: GrokOptions & { text?: false },
): { results: GrokSampleResult[] };
/** The answer as its JSON text, byte for byte what the service sends. */
export declare function parseGrok(
  request: { grokParser: GrokParser; logSamples: string[] },
  options: GrokOptions & { text: true },
): string;

/** Loads the grok module again (default: the one shipped beside the package's files). */
export declare function init(source?: string | URL | Response | Promise<Response> | BufferSource | WebAssembly.Module): Promise<void>;
