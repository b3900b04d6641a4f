// Generated from the catalog of operations (model/src/ops): do not edit.
// `JOBGRAPH_UPDATE_TYPES=1 cargo test -p jobgraph-model --lib typescript` rewrites it.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A predicate: an object `{type, …}` (docs/pipeline.md, "Predicates"). */
export type Predicate = { type: string; [field: string]: Json };

/** Streaming source fed by the integration's Datadog-Agent-compatible HTTP log intake (Agent with HTTP forced, Fluent Bit/Fluentd Datadog outputs). Emits log events on `output`; typically followed by a filter, JSON parser and remapper. */
export interface DatadogLogAgentSourceVertex {
  type: "datadog-log-agent-source";
  name: string;
  /** The Datadog integration whose ingest endpoint feeds this source. */
  integrationId: string;
  /** Where to start when no committed offset exists (service-side Kafka): EARLIEST (oldest retained), LATEST (newest; current behaviour), NONE. Default: `"LATEST"`. */
  offsetResetStrategy?: "LATEST" | "EARLIEST" | "NONE";
  /** Enrich events with host metadata (undocumented beyond the schema). Default: `false`. */
  hostEnrichmentEnabled?: boolean;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Streaming source fed by the integration's Splunk HTTP Event Collector endpoint (/services/collector/event). Emits log events on `output`. */
export interface SplunkLogAgentSourceVertex {
  type: "splunk-log-agent-source";
  name: string;
  /** The integration whose intake endpoint feeds this source. */
  integrationId: string;
  /** Where to start when no committed offset exists. Default: `"LATEST"`. */
  offsetResetStrategy?: "LATEST" | "EARLIEST" | "NONE";
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Streaming source fed by the integration's New Relic-compatible log intake. Emits log events on `output`. */
export interface NewrelicLogAgentSourceVertex {
  type: "newrelic-log-agent-source";
  name: string;
  /** The integration whose intake endpoint feeds this source. */
  integrationId: string;
  /** Where to start when no committed offset exists. Default: `"LATEST"`. */
  offsetResetStrategy?: "LATEST" | "EARLIEST" | "NONE";
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Streaming source fed by the integration's Sumo Logic HTTP Source-compatible intake (schema name SumoLogSource, type string sumologic-log-agent-source). Emits log events on `output`. */
export interface SumologicLogAgentSourceVertex {
  type: "sumologic-log-agent-source";
  name: string;
  /** The integration whose intake endpoint feeds this source. */
  integrationId: string;
  /** Where to start when no committed offset exists. Default: `"LATEST"`. */
  offsetResetStrategy?: "LATEST" | "EARLIEST" | "NONE";
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Streaming source fed by the integration's OTLP/HTTP logs endpoint (…/v1/logs; no gRPC). Canonical type string in the client types is `otlp-log-agent-source`; the older operations-reference skill called it `otel-log-source`. */
export interface OtlpLogAgentSourceVertex {
  type: "otlp-log-agent-source";
  name: string;
  /** The integration whose intake endpoint feeds this source. */
  integrationId: string;
  /** Where to start when no committed offset exists. Default: `"LATEST"`. */
  offsetResetStrategy?: "LATEST" | "EARLIEST" | "NONE";
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** The older name of `otlp-log-agent-source`: logs sent to the integration's OTLP/HTTP endpoint. */
export interface OtelLogSourceVertex {
  type: "otel-log-source";
  name: string;
  /** The integration whose intake endpoint feeds this source. */
  integrationId: string;
  /** Where to start when no committed offset exists. Default: `"LATEST"`. */
  offsetResetStrategy?: "LATEST" | "EARLIEST" | "NONE";
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Reads a dataset of the data lake (or a `table`): the events between `start` and `end` that its predicate matches, at most `limit`, in `sortOrder`. */
export interface LogsIcebergTableSourceVertex {
  type: "logs-iceberg-table-source";
  name: string;
  /** Table to read (`logs` when a dataset is named without one). */
  table?: string;
  /** Dataset to read, by identifier. */
  datasetId?: string;
  /** Dataset to read, by name (when `datasetId` is absent). */
  datasetName?: string;
  /** Start of the time range, ISO 8601, inclusive. */
  start?: string;
  /** End of the time range, ISO 8601, exclusive. */
  end?: string;
  /** Events read at most. Default: `2500`. */
  limit?: number;
  /** Events skipped before the first one read. Default: `0`. */
  offset?: number;
  /** Order of the events read: `ASCENDING`, `DESCENDING` or `UNSORTED` (the default); `ASC` and `DESC` are accepted. */
  sortOrder?: string;
  /** Variables substituted into the query text (`{"__service": "x"}`). */
  variables?: { [key: string]: Json };
  /** Processing mode, `STREAM` in the examples (a continuous read). */
  processing?: string;
  /** Optional row filter (the interface document's name). */
  query?: Predicate;
  /** Optional row filter (the public service's name; wins over `query`). */
  predicate?: Predicate;
  /** In the public examples; not used. */
  integrationId?: string;
  /** In the public examples; not used. */
  reductionInterval?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Reads a dataset's raw logs, as `logs-iceberg-table-source` does (the public client's default query engine). */
export interface GreprRawLogSourceVertex {
  type: "grepr-raw-log-source";
  name: string;
  /** Table to read (`logs` when a dataset is named without one). */
  table?: string;
  /** Dataset to read, by identifier. */
  datasetId?: string;
  /** Dataset to read, by name (when `datasetId` is absent). */
  datasetName?: string;
  /** Start of the time range, ISO 8601, inclusive. */
  start?: string;
  /** End of the time range, ISO 8601, exclusive. */
  end?: string;
  /** Events read at most. Default: `2500`. */
  limit?: number;
  /** Events skipped before the first one read. Default: `0`. */
  offset?: number;
  /** Order of the events read: `ASCENDING`, `DESCENDING` or `UNSORTED` (the default); `ASC` and `DESC` are accepted. */
  sortOrder?: string;
  /** Variables substituted into the query text (`{"__service": "x"}`). */
  variables?: { [key: string]: Json };
  /** Processing mode, `STREAM` in the examples (a continuous read). */
  processing?: string;
  /** Optional row filter (the interface document's name). */
  query?: Predicate;
  /** Optional row filter (the public service's name; wins over `query`). */
  predicate?: Predicate;
  /** In the public examples; not used. */
  integrationId?: string;
  /** In the public examples; not used. */
  reductionInterval?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Emits the inline `values` events (for tests, drafts and sample-log replays). In BATCH it emits each value once and ends; in STREAMING it stops after one pass unless `loop` is true. */
export interface LogsValuesSourceVertex {
  type: "logs-values-source";
  name: string;
  /** Inline LogEvents. Public examples give only message/tags/severity/attributes; missing id and timestamps are filled in (id generated, timestamps = now). Default: `[]`. */
  values?: { [key: string]: Json }[];
  /** STREAMING only: loop over the values indefinitely; ignored in BATCH. Default: `false`. */
  loop?: boolean;
  /** LEGACY: sent as false by the CLI's job-graph-transformer (sample-data path); not in the schema. Treat as alias of `loop`. */
  indefinite?: boolean;
  /** The events of `values` under another name (accepted when `values` is absent). */
  logs?: { [key: string]: Json }[];
  /** Only the inline events it matches are emitted (the public service's name). */
  predicate?: Predicate;
  /** Only the inline events it matches are emitted (the interface document's name). */
  query?: Predicate;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Keeps the events its predicate matches (with `inverted`, the others) and drops the rest. */
export interface LogsFilterVertex {
  type: "logs-filter";
  name: string;
  /** Which logs pass (the public service's name; wins over `query`). */
  predicate?: Predicate;
  /** Which logs pass (the interface document's name). */
  query?: Predicate;
  /** Let the events the predicate does not match pass instead. Default: `false`. */
  inverted?: boolean;
  /** Drop events received later than this after their event time (an ISO 8601 duration, `PT2M`); no lateness check when absent. Not simulated. */
  maxLateEventTimestampDelta?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Routes each event: matches leave by the default output (`output`, used by an edge with no port), non-matches by `else` (edge `branch:else -> x`). */
export interface LogsBranchVertex {
  type: "logs-branch";
  name: string;
  /** Events routed to the default output. EventPredicate: discriminated by `type`. */
  predicate?: Predicate;
  /** The predicate under the interface document's name; `predicate` wins when both are given. */
  query?: Predicate;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Token-bucket rate limiter: passes at most maxAllowedRate events/second (spread over parallel subtasks) with bursts up to maxBurstLimit; if `filter` is set only matching events are rate-limited and the rest pass untouched. Recommended in every synchronous streaming job. */
export interface LogsEventSamplerVertex {
  type: "logs-event-sampler";
  name: string;
  /** Events per second (double). Default: `10`. */
  maxAllowedRate?: number;
  /** Bucket size (burst). Default: `2000`. */
  maxBurstLimit?: number;
  /** Only matching events are sampled (others pass through). EventPredicate: discriminated by `type`. */
  filter?: Predicate;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Parses each event's message (or `extractAttribute`) with grok rules into attributes, tags and top-level fields; the first matching rule wins. */
export interface GrokParserVertex {
  type: "grok-parser";
  name: string;
  /** The parsing rules: an array of `RuleName pattern` strings, or one string with a rule per line (`docs/grok.md`). */
  grokParsingRules: string[] | string;
  /** Helper rules, same forms. */
  grokHelperRules?: string[] | string;
  /** The attribute holding the raw line; the event's `message` when absent. */
  extractAttribute?: string;
  /** Only the events it matches are parsed (the public service's name). */
  predicate?: Predicate;
  /** Only the events it matches are parsed (the interface document's name). */
  query?: Predicate;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Parses a JSON `message` into `attributes` (message cleared unless preserveJsonMessageField) and also decodes JSON strings found at resolveNestedJsonFields paths (iteratively); malformed JSON passes unchanged. */
export interface JsonLogProcessorVertex {
  type: "json-log-processor";
  name: string;
  /** Max nesting depth of parsed fields. Default: `3`. */
  maxNestedDepthForFields?: number;
  /** Max passes resolving nested JSON strings. Default: `5`. */
  maxNestedJsonIterations?: number;
  /** Attribute paths (segment arrays) whose string values are decoded as JSON and merged into the root of attributes. Default: `[["message"], ["msg"], ["log"]]`. */
  resolveNestedJsonFields?: string[][];
  /** Keep the JSON text in `message`. Default: `false`. */
  preserveJsonMessageField?: boolean;
  /** Object-valued fields whose children are lifted into the containing object (recursive; maps merged, later field wins). Default: `[]`. */
  liftFieldNames?: string[];
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Extracts key=value pairs from the message into attributes. Listed only in the operations-reference skill table (key properties fieldSeparator, valueSeparator); absent from the client's OpenAPI types and from the service's generated OPERATION_TYPES set. */
export interface KeyvalueProcessorVertex {
  type: "keyvalue-processor";
  name: string;
  /** Separator between pairs. Undocumented default; we use " " (the grok keyvalue() transformer splits pairs on space, comma, semicolon). Default: `" "`. */
  fieldSeparator?: string;
  /** Separator between key and value. Undocumented default; we use "=" (grok keyvalue() default). Default: `"="`. */
  valueSeparator?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Moves/copies well-known attributes to top-level fields (message, eventTimestamp, severity) and tags (host, service, trace id), maps attributes to tags, and applies ordered attribute rename rules. Every field is optional; the UI adds one with defaults ('auto-configured'). */
export interface LogAttributesRemapperVertex {
  type: "log-attributes-remapper";
  name: string;
  /** Dotted attributes searched (in order) for `message`. Default: `["message", "msg", "log", "M", "Message"]`. */
  messageReservedAttributes?: string[];
  /** Segment-array paths searched for `message`. Default: `[]`. */
  messageReservedAttributePaths?: string[][];
  /** Keep the source attribute after remapping (message source is removed by default; greprMeta.messageAttributePath records it). Default: `false`. */
  messagePreserveSource?: boolean;
  /** Attributes searched for the event timestamp. Default: `["@timestamp", "timestamp", "_timestamp", "Timestamp", "eventTime", "date", "published_date", "syslog.timestamp", "T"]`. */
  timestampReservedAttributes?: string[];
  /** Segment-array paths for the timestamp. Default: `[]`. */
  timestampReservedAttributePaths?: string[][];
  /** Keep the source attribute. Default: `true`. */
  timestampPreserveSource?: boolean;
  /** Attributes searched for host (written to tag `host`). Default: `["host", "hostname", "syslog.hostname", "kubernetes.host", "sourceIPAddress"]`. */
  hostReservedAttributes?: string[];
  /** Segment-array paths for host. Default: `[["_resource", "host.name"]]`. */
  hostReservedAttributePaths?: string[][];
  /** Keep the source attribute. Default: `true`. */
  hostPreserveSource?: boolean;
  /** Attributes searched for service (tag `service`). Default: `["service", "syslog.appname", "dd.service", "kubernetes.labels.app", "labels.app", "kubernetes.labels.k8s-app", "labels.k8s-app", "eventSource"]`. */
  serviceReservedAttributes?: string[];
  /** Segment-array paths for service. Default: `[["_resource", "service.name"], ["kubernetes", "labels", "app.kubernetes.io/name"], ["labels", "app.kubernetes.io/name"]]`. */
  serviceReservedAttributePaths?: string[][];
  /** Keep the source attribute. Default: `true`. */
  servicePreserveSource?: boolean;
  /** Attributes searched for status/severity. Default: `["log.level", "status", "severity", "level", "syslog.severity", "L"]`. */
  statusReservedAttributes?: string[];
  /** Segment-array paths for status. Default: `[]`. */
  statusReservedAttributePaths?: string[][];
  /** Keep the source attribute. Default: `true`. */
  statusPreserveSource?: boolean;
  /** Attributes searched for the trace id. Default: `["dd.trace_id", "contextMap.dd.trace_id", "otelTraceID"]`. */
  traceIdReservedAttributes?: string[];
  /** Segment-array paths for the trace id. Default: `[]`. */
  traceIdReservedAttributePaths?: string[][];
  /** Keep the source attribute. Default: `true`. */
  traceIdPreserveSource?: boolean;
  /** Tag key -> ordered dotted attribute paths; every found value is added to the tag (existing values kept). Default: `{}`. */
  tagMappings?: { [key: string]: string[] };
  /** Tag key -> ordered segment-array paths (same semantics). Default: `{}`. */
  tagMappingPaths?: { [key: string]: string[][] };
  /** Keep the attributes used by tagMappings. Default: `false`. */
  tagMappingsPreserveSource?: boolean;
  /** Dotted paths of maps (string -> string or list) whose entries are added to tags. Default: `[]`. */
  tagMappingsLocations?: string[];
  /** Segment-array paths of such maps. Default: `[]`. */
  tagMappingsLocationPaths?: string[][];
  /** Keep those maps. Default: `false`. */
  tagMappingsLocationPreserveSource?: boolean;
  /** Rename rules applied in order (move, or copy with preserveSource). Default: `[]`. */
  attributeRemappingRules?: {
    /** Source attribute path (dot notation). */
    source: string;
    /** Target attribute path (dot notation); overwritten if present. */
    target: string;
    /** Copy instead of move. Default: `false`. */
    preserveSource?: boolean;
    /** Apply the rule only to matching events. EventPredicate: discriminated by `type`. */
    predicate?: Predicate;
    [field: string]: unknown;
  }[];
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Applies its `transforms` to each event in `order`: a `tag-action` adds (`ADD`), replaces (`SET`) or removes (`REMOVE`) a tag's values. */
export interface LogTransformVertex {
  type: "log-transform";
  name: string;
  /** The transforms, applied in `order`. */
  transforms: Array<{
    type: "tag-action";
    /** Position among the transforms. */
    order: number;
    /** What to do with the tag: `ADD` values, `SET` (replace) them, `REMOVE` the listed values (the whole tag when none are listed), `DELETE` the tag. */
    modification: "ADD" | "SET" | "REMOVE" | "DELETE";
    /** The tag's key. */
    tagKey: string;
    /** The tag's values. Default: `[]`. */
    values?: string[];
    [field: string]: unknown;
  } | { type: string; [field: string]: unknown }>;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Runs an ordered list of Flink SQL statements: each input port is a table named by a key of `inputs` with the given row type; `sql_view` statements define intermediate tables; each `sql_output` becomes an output port carrying its rows. Stateful operations use globalStateTtl and watermarkDelay. */
export interface SqlOperationVertex {
  type: "sql-operation";
  name: string;
  /** Ordered statements; non-empty; at least one sql_output. */
  statements: Array<{
    type: "sql_view";
    /** Unique among views. */
    tableName: string;
    /** Flink SQL SELECT over inputs, earlier views and dataset tables. */
    sqlQuery: string;
    /** Force an execution boundary so the view is computed once. Default: `false`. */
    materialized?: boolean;
    /** Event-time column for re-establishing watermarks after materialization. */
    eventTimeAttribute?: string;
    [field: string]: unknown;
  } | {
    type: "sql_output";
    /** Unique among outputs; must contain an underscore (server-side regex). */
    outputName: string;
    /** Row type of the stream. */
    outputType: "VARIANT" | "LOG_EVENT" | "COMPLETE_SPAN" | "METRIC_DATA" | "WIDE_METRIC_DATA";
    /** Flink SQL SELECT. */
    sqlQuery: string;
    /** As for views. Default: `false`. */
    materialized?: boolean;
    /** Event-time column. */
    eventTimeAttribute?: string;
    [field: string]: unknown;
  } | {
    type: "sql_io";
    /** Statement. */
    sqlQuery: string;
    /** Not documented publicly. */
    materialized?: boolean;
    /** Not documented publicly. */
    eventTimeAttribute?: string;
    [field: string]: unknown;
  } | { type: string; [field: string]: unknown }>;
  /** Input table name -> row type. Schema default {}; the SQL skill and examples use {"logs": "LOG_EVENT"}. Default: `{}`. */
  inputs?: { [key: string]: "VARIANT" | "LOG_EVENT" | "COMPLETE_SPAN" | "METRIC_DATA" | "WIDE_METRIC_DATA" };
  /** Dataset ids whose tables may be queried (each in a namespace named after the dataset). The skill says it throws at execution today — leave []. Default: `[]`. */
  availableDatasets?: string[];
  /** Idle-state TTL for aggregations/joins. ISO-8601 duration string (e.g. PT2M, PT120S, PT20.345S). Default: `"PT2M"`. */
  globalStateTtl?: string;
  /** Allowed lateness for event-time operations. ISO-8601 duration string (e.g. PT2M, PT120S, PT20.345S); max PT10M; sub-second precision dropped. Default: `"PT5S"`. */
  watermarkDelay?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Groups events per tumbling window (reductionTimeWindow) and per partition into message patterns (masking, tokenizing on delimiters, similarity >= similarityThreshold). Passes the first dedupThreshold events of a pattern as samples, then holds the pattern and emits one summary at window end (plus logarithmic extra samples if configured). Every output carries tag grepr.messagetype = sample|summary|passthrough|exception; summaries carry grepr.patternId, grepr.repeatCount, grepr.firstTimeTimestamp, grepr.lastTimeTimestamp, grepr.receivedTimestamp, grepr.rawLogsUrl and attributes merged per strategy. */
export interface LogReducerVertex {
  type: "log-reducer";
  name: string;
  /** Percent of equal tokens needed to join a pattern. Docs (UI): whole number 20–100. Default: `70`. */
  similarityThreshold?: number;
  /** Tag keys; patterns are built independently per combination of values. Default: `[]`. */
  partitionByTags?: string[];
  /** Dotted attribute paths to partition by. Default: `[]`. */
  partitionByAttributes?: string[];
  /** Attribute paths as segment arrays ([["user","id"]] nested vs [["user.id"]] flat key). Default: `[]`. */
  partitionByAttributePaths?: string[][];
  /** Tumbling aggregation window. ISO-8601 duration string (e.g. PT2M, PT120S, PT20.345S). Must be > 0. Default: `"PT2M"`. */
  reductionTimeWindow?: string;
  /** Samples passed per pattern per window before holding (docs: whole number >= 2). Default: `4`. */
  dedupThreshold?: number;
  /** Sampling after dedupThreshold. Default: `{"type": "constant-sampling"}`. */
  samplingConfig?: {
    type: "constant-sampling";
    [field: string]: unknown;
  } | {
    type: "window-based-logarithmic-sampling";
    /** Logarithm base (docs: whole number >= 2). Default: `2`. */
    logarithmBase?: number;
    [field: string]: unknown;
  } | { type: string; [field: string]: unknown };
  /** Prefix summary messages with the repeat count/period. Default: `true`. */
  repeatCountInSummaryMessageEnabled?: boolean;
  /** Mask catalogue as [name, regex] pairs. Non-optional in the TS type but has a full default (the six built-ins); custom names: lowercase letters only, <= 50 chars, unique; regex without lookaround/backreferences (Hyperscan). Replacing the array replaces the catalogue. Default: `[["ipport", "(?:\\d{1,3}\\.){3}\\d{1,3}(?::\\d{1,5})?"], ["timestamp", "(?:(?:\\d{4}-\\d{2}-\\d{2}(?:T|\\s)\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,12})?(?:Z|(?:[\\+\\-]\\d{2}:?\\d{2})|\\sUTC)?)|(?:\\d{1,4}/\\d{1,2}/\\d{1,4}(,?\\s\\d{1,2}:\\d{2}:\\d{1,2}(?:[.,]\\d{1,12})?(?:\\s?(?:[AP]M))?)?)|(?:\\d{1,2}:\\d{2}:\\d{1,2}(?:[.,]\\d{1,12})?(?:\\s?(?:[AP]M))?)|(?:\\d{2}/[A-Za-z]{3}/\\d{4}(?:[:\\s]\\d{2}:\\d{2}:\\d{2}(?:\\s\\+[0-9]{4})?)?))"], ["uuid", "(?:^|(?<!\\w))(?:[a-fA-F0-9]{8}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{12})(?:(?!\\w)|$)"], ["number", "(?:^|(?<!\\w))(?:(?:0x[a-fA-F0-9]{1,100})|(?:[\\-\\+]?(?>(?:(?:\\d{1,100})?(?:\\.\\d{1,100})(?:[eE][\\-\\+]?\\d{1,100}))|(?:(?:\\d{1,100})?(?:\\.\\d{1,100}))|(?:\\d{1,100}))))(?:(?!\\w)|$)"], ["awsarn", "arn:aws(?:-[a-z]+-[a-z]+)?:[a-zA-Z0-9-]+:(?:[a-z0-9-]+:)?(?:[0-9]{12})?:[a-zA-Z0-9-_./]+(?::[a-zA-Z0-9-_./]+)*"], ["awstoken", "(?:IQoJb3JpZ2luX[A-Za-z0-9+/]{10,20})[A-Za-z0-9+/]{800,1100}"]]`. */
  masks?: string[][];
  /** Names (from `masks`) applied before tokenizing. Non-optional in TS; default ipport,timestamp,uuid,number (awsarn, awstoken off). Default: `["ipport", "timestamp", "uuid", "number"]`. */
  enabledMasks?: string[];
  /** Single-character token separators. Non-optional in TS. Default: the 17 of the reducer docs page (no '@' nor '.'); an older client schema adds & = ? ! + * / < > % ^ ~ `. Duplicates rejected; control chars given as JSON escapes. Default: `[":", "#", "[", "]", "(", ")", "{", "}", "|", ",", ";", "\"", "'", " ", "\t", "\n", "\r"]`. */
  delimiters?: string[];
  /** Strategy for attribute paths without an entry (use `composite` for several). Default: `{"type": "exact"}`. */
  defaultAttributesMergeStrategy?: {
    type: "exact";
    [field: string]: unknown;
  } | {
    type: "sample";
    /** Max values kept (UI default 10). Default: `10`. */
    limit?: number;
    /** Store as a set (discard duplicates) instead of a list. */
    unique?: boolean;
    [field: string]: unknown;
  } | {
    type: "preserve";
    /** Collection size that forces a summary (UI default 1000). Default: `1000`. */
    limit?: number;
    /** Set (true) or list (false) semantics. */
    unique?: boolean;
    [field: string]: unknown;
  } | {
    type: "sum";
    [field: string]: unknown;
  } | {
    type: "min";
    [field: string]: unknown;
  } | {
    type: "max";
    [field: string]: unknown;
  } | {
    type: "avg";
    [field: string]: unknown;
  } | {
    type: "composite";
    /** Strategies, in order. Default: `[]`. */
    strategies?: { [key: string]: Json }[];
    [field: string]: unknown;
  } | {
    type: "ignore";
    [field: string]: unknown;
  } | { type: string; [field: string]: unknown };
  /** Per-path strategies. Paths non-empty and unique (server error 'Duplicate attribute paths in merge strategies are not allowed'). Default: `[]`. */
  attributeMergeStrategyEntries?: {
    /** Path segments, e.g. ["http","response","bytes"]. */
    attributePath: string[];
    /** Strategy for this path. */
    strategy: {
      type: "exact";
      [field: string]: unknown;
    } | {
      type: "sample";
      /** Max values kept (UI default 10). Default: `10`. */
      limit?: number;
      /** Store as a set (discard duplicates) instead of a list. */
      unique?: boolean;
      [field: string]: unknown;
    } | {
      type: "preserve";
      /** Collection size that forces a summary (UI default 1000). Default: `1000`. */
      limit?: number;
      /** Set (true) or list (false) semantics. */
      unique?: boolean;
      [field: string]: unknown;
    } | {
      type: "sum";
      [field: string]: unknown;
    } | {
      type: "min";
      [field: string]: unknown;
    } | {
      type: "max";
      [field: string]: unknown;
    } | {
      type: "avg";
      [field: string]: unknown;
    } | {
      type: "composite";
      /** Strategies, in order. Default: `[]`. */
      strategies?: { [key: string]: Json }[];
      [field: string]: unknown;
    } | {
      type: "ignore";
      [field: string]: unknown;
    } | { type: string; [field: string]: unknown };
    [field: string]: unknown;
  }[];
  /** EventPredicates; matching events bypass aggregation and leave tagged grepr.messagetype=exception. Default: `[]`. */
  logReducerExceptions?: Json[];
  /** Use exceptions imported from vendor integrations (monitors, dashboards). Default: `[]`. */
  integrationExceptionConfigs?: {
    /** Integration whose imported (vendor) exceptions are used. */
    integrationId: string;
    /** Selected imported-exception ids. Default: `[]`. */
    ids?: string[];
    /** Follow the integration's exceptions automatically. Default: `false`. */
    autoSync?: boolean;
    /** Max estimated passthrough % for auto-synced exceptions. */
    autosyncPassthroughRateThreshold?: number;
    /** Dataset against which the auto-sync threshold is evaluated (required for the threshold to apply). */
    datasetId?: string;
    [field: string]: unknown;
  }[];
  /** May emit new-pattern signals to subscribed AI agents. Default: `false`. */
  emitNewPatternSignals?: boolean;
  /** What builds the pattern (docs only, newer than stored client types): MESSAGE_ONLY (default; empty messages pass through), message-or-attributes-when-empty, ATTRIBUTES_ONLY, message-and-attributes. The two middle enum spellings are not shown in any public source — see decisions. Default: `"MESSAGE_ONLY"`. */
  tokenizationInput?: "MESSAGE_ONLY" | "MESSAGE_OR_ATTRIBUTES" | "ATTRIBUTES_ONLY" | "MESSAGE_AND_ATTRIBUTES";
  /** When attributes participate: KEYS_AND_VALUES (compare values, default) or KEYS_ONLY. Default: `"KEYS_AND_VALUES"`. */
  attributeTokenization?: "KEYS_AND_VALUES" | "KEYS_ONLY";
  /** Attribute subtrees that participate (segment arrays); empty = all. Default: `[]`. */
  includedAttributePrefixes?: string[][];
  /** Attribute subtrees excluded (wins over include). Default: `[]`. */
  excludedAttributePrefixes?: string[][];
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Assigns each event its message pattern (same masking/tokenizing/similarity machinery as the reducer) and forwards every event with its message preserved; events with known patterns can skip a downstream global reducer. Does not aggregate, sample or summarize. */
export interface PatternMatcherVertex {
  type: "pattern-matcher";
  name: string;
  /** Percent of equal tokens needed to join a pattern. Docs (UI): whole number 20–100. Default: `70`. */
  similarityThreshold?: number;
  /** Tag keys; patterns are built independently per combination of values. Default: `[]`. */
  partitionByTags?: string[];
  /** Dotted attribute paths to partition by. Default: `[]`. */
  partitionByAttributes?: string[];
  /** Attribute paths as segment arrays ([["user","id"]] nested vs [["user.id"]] flat key). Default: `[]`. */
  partitionByAttributePaths?: string[][];
  /** Mask catalogue as [name, regex] pairs. Non-optional in the TS type but has a full default (the six built-ins); custom names: lowercase letters only, <= 50 chars, unique; regex without lookaround/backreferences (Hyperscan). Replacing the array replaces the catalogue. Default: `[["ipport", "(?:\\d{1,3}\\.){3}\\d{1,3}(?::\\d{1,5})?"], ["timestamp", "(?:(?:\\d{4}-\\d{2}-\\d{2}(?:T|\\s)\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,12})?(?:Z|(?:[\\+\\-]\\d{2}:?\\d{2})|\\sUTC)?)|(?:\\d{1,4}/\\d{1,2}/\\d{1,4}(,?\\s\\d{1,2}:\\d{2}:\\d{1,2}(?:[.,]\\d{1,12})?(?:\\s?(?:[AP]M))?)?)|(?:\\d{1,2}:\\d{2}:\\d{1,2}(?:[.,]\\d{1,12})?(?:\\s?(?:[AP]M))?)|(?:\\d{2}/[A-Za-z]{3}/\\d{4}(?:[:\\s]\\d{2}:\\d{2}:\\d{2}(?:\\s\\+[0-9]{4})?)?))"], ["uuid", "(?:^|(?<!\\w))(?:[a-fA-F0-9]{8}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{4}[-,_,:]?[a-fA-F0-9]{12})(?:(?!\\w)|$)"], ["number", "(?:^|(?<!\\w))(?:(?:0x[a-fA-F0-9]{1,100})|(?:[\\-\\+]?(?>(?:(?:\\d{1,100})?(?:\\.\\d{1,100})(?:[eE][\\-\\+]?\\d{1,100}))|(?:(?:\\d{1,100})?(?:\\.\\d{1,100}))|(?:\\d{1,100}))))(?:(?!\\w)|$)"], ["awsarn", "arn:aws(?:-[a-z]+-[a-z]+)?:[a-zA-Z0-9-]+:(?:[a-z0-9-]+:)?(?:[0-9]{12})?:[a-zA-Z0-9-_./]+(?::[a-zA-Z0-9-_./]+)*"], ["awstoken", "(?:IQoJb3JpZ2luX[A-Za-z0-9+/]{10,20})[A-Za-z0-9+/]{800,1100}"]]`. */
  masks?: string[][];
  /** Names (from `masks`) applied before tokenizing. Non-optional in TS; default ipport,timestamp,uuid,number (awsarn, awstoken off). Default: `["ipport", "timestamp", "uuid", "number"]`. */
  enabledMasks?: string[];
  /** Single-character token separators. Non-optional in TS. Default: the 17 of the reducer docs page (no '@' nor '.'); an older client schema adds & = ? ! + * / < > % ^ ~ `. Duplicates rejected; control chars given as JSON escapes. Default: `[":", "#", "[", "]", "(", ")", "{", "}", "|", ",", ";", "\"", "'", " ", "\t", "\n", "\r"]`. */
  delimiters?: string[];
  /** May emit new-pattern signals to subscribed AI agents. Default: `false`. */
  emitNewPatternSignals?: boolean;
  /** What builds the pattern (docs only, newer than stored client types): MESSAGE_ONLY (default; empty messages pass through), message-or-attributes-when-empty, ATTRIBUTES_ONLY, message-and-attributes. The two middle enum spellings are not shown in any public source — see decisions. Default: `"MESSAGE_ONLY"`. */
  tokenizationInput?: "MESSAGE_ONLY" | "MESSAGE_OR_ATTRIBUTES" | "ATTRIBUTES_ONLY" | "MESSAGE_AND_ATTRIBUTES";
  /** When attributes participate: KEYS_AND_VALUES (compare values, default) or KEYS_ONLY. Default: `"KEYS_AND_VALUES"`. */
  attributeTokenization?: "KEYS_AND_VALUES" | "KEYS_ONLY";
  /** Attribute subtrees that participate (segment arrays); empty = all. Default: `[]`. */
  includedAttributePrefixes?: string[][];
  /** Attribute subtrees excluded (wins over include). Default: `[]`. */
  excludedAttributePrefixes?: string[][];
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Replaces what its regular expressions match in the message, and in string attributes at given paths, with a label (`[label]` by default). */
export interface MaskingOperatorVertex {
  type: "masking-operator";
  name: string;
  /** Label (at most 64 characters) → mask applied to the message: a regular expression, or `{regex, replacement, preserveThrough}`. The leftmost longest match wins, then the order of declaration. Default: `{}`. */
  messageMasks?: { [key: string]: Json };
  /** Masks of string attributes, per path (each path once). Default: `[]`. */
  attributeMasks?: {
    /** The attribute's path, one key per item (`["http", "url"]`). */
    path: string[];
    /** Label → mask (a regular expression, or `{regex, replacement, preserveThrough}`). */
    masks: { [key: string]: Json };
    [field: string]: unknown;
  }[];
  /** Only the events it matches are masked (the public service's name). */
  predicate?: Predicate;
  /** Only the events it matches are masked (the interface document's name). */
  query?: Predicate;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Replaced, when the job is resolved, by the subgraph its template's script returns for `templateInputs`; its ports are the template's `inputs` and `outputs`. */
export interface TemplateOperationVertex {
  type: "template-operation";
  name: string;
  /** Template to use. */
  templateId: string;
  /** Exact version; the latest when absent. */
  templateVersion?: number;
  /** Values for the template's parameters. Default: `{}`. */
  templateInputs?: { [key: string]: Json };
  /** Draft mode for this operation (and every operation nested in it). Default: `false`. */
  draftMode?: boolean;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Appends the events reaching it to a dataset of the data lake (Parquet files), committed when the run finishes. `datasetId` (or `datasetName`) is required. */
export interface LogsIcebergTableSinkVertex {
  type: "logs-iceberg-table-sink";
  name: string;
  /** Dataset written, by identifier. */
  datasetId?: string;
  /** Dataset written, by name (when `datasetId` is absent). */
  datasetName?: string;
  /** Table written; `logs` when absent. */
  table?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Sends events to Datadog's log intake with the integration's credentials/site; tags = event tags + integration additionalTags + these additionalTags (Grepr also adds processor:grepr). */
export interface DatadogLogSinkVertex {
  type: "datadog-log-sink";
  name: string;
  /** Datadog integration. */
  integrationId: string;
  /** Extra `key:value` tags, combined with the integration's additionalTags. Default: `[]`. */
  additionalTags?: string[];
  /** Top-level JSON field names the host is written to; empty = ["hostname"]. Default: `[]`. */
  hostFieldNames?: string[];
  /** Group-by attributes for the browser intake; empty = ["http.useragent", "network.client.ip"]. Default: `[]`. */
  browserLogGroupByAttributes?: string[];
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Sends events to Splunk via HTTP Event Collector using the integration's host/token. */
export interface SplunkLogSinkVertex {
  type: "splunk-log-sink";
  name: string;
  /** Splunk integration. */
  integrationId: string;
  /** Extra tags, combined with the integration's. Default: `[]`. */
  additionalTags?: string[];
  /** Index used when the event has none. */
  defaultIndex?: string;
  /** Index forced on every event. */
  indexOverride?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Sends events to New Relic's log API using the integration's license key/site. */
export interface NewrelicLogSinkVertex {
  type: "newrelic-log-sink";
  name: string;
  /** The vendor's integration. */
  integrationId: string;
  /** Extra attributes (string -> string), combined with the integration's. Default: `{}`. */
  additionalAttributes?: { [key: string]: string };
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Sends events to the integration's Sumo Logic HTTP/OTLP endpoint. */
export interface SumologicLogSinkVertex {
  type: "sumologic-log-sink";
  name: string;
  /** The vendor's integration. */
  integrationId: string;
  /** Extra attributes (string -> string), combined with the integration's. Default: `{}`. */
  additionalAttributes?: { [key: string]: string };
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** Streams the events reaching it back to the caller of a synchronous job, one event per `RUNNING` record. */
export interface LogsSyncSinkVertex {
  type: "logs-sync-sink";
  name: string;
  /** Integration that receives the logs; may be left out. */
  integration?: string;
  /** Other fields are kept as they are (and reported as unknown). */
  [field: string]: unknown;
}

/** A vertex of a type the catalog does not know: kept, passed through, named as not simulated. */
export interface OtherVertex {
  type: string;
  name: string;
  [field: string]: unknown;
}

/** Any vertex: one of the catalog's types, or another. */
export type CatalogVertex =
  | DatadogLogAgentSourceVertex
  | SplunkLogAgentSourceVertex
  | NewrelicLogAgentSourceVertex
  | SumologicLogAgentSourceVertex
  | OtlpLogAgentSourceVertex
  | OtelLogSourceVertex
  | LogsIcebergTableSourceVertex
  | GreprRawLogSourceVertex
  | LogsValuesSourceVertex
  | LogsFilterVertex
  | LogsBranchVertex
  | LogsEventSamplerVertex
  | GrokParserVertex
  | JsonLogProcessorVertex
  | KeyvalueProcessorVertex
  | LogAttributesRemapperVertex
  | LogTransformVertex
  | SqlOperationVertex
  | LogReducerVertex
  | PatternMatcherVertex
  | MaskingOperatorVertex
  | TemplateOperationVertex
  | LogsIcebergTableSinkVertex
  | DatadogLogSinkVertex
  | SplunkLogSinkVertex
  | NewrelicLogSinkVertex
  | SumologicLogSinkVertex
  | LogsSyncSinkVertex
  | OtherVertex;
