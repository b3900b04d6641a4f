// A typed use of the types openapi-typescript generates from the served /openapi.json:
// scripts/openapi-clients.sh generates them into target/openapi-clients/ts/jobgraph-api.ts,
// copies this file beside them and compiles it with `tsc --strict --noEmit`. It uses the
// template endpoints' bodies and answers as a client would, and the `@ts-expect-error` lines
// prove that the types reject what the service rejects (a compile error there is expected;
// its absence fails the build).

import type { components, paths } from "./jobgraph-api";

type Schemas = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;

type Templates = paths["/v1/templates"];
type Template = paths["/v1/templates/{id}"];

type TokenBody = paths["/oauth/token"]["post"]["requestBody"]["content"]["application/json"];
type TokenForm = paths["/oauth/token"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"];
type Token = Json<paths["/oauth/token"]["post"]["responses"][200]>;
type CreateBody = Json<Templates["post"]["requestBody"]>;
type Created = Json<Templates["post"]["responses"][201]>;
type Listed = Json<Templates["get"]["responses"][200]>;
type UpdateBody = Json<Template["put"]["requestBody"]>;
type Updated = Json<Template["put"]["responses"][200]>;
type Conflict = Json<Template["put"]["responses"][409]>;
type ReadBack = Json<Template["get"]["responses"][200]>;
type ReadQuery = NonNullable<Template["get"]["parameters"]["query"]>;
type ReadPath = Template["get"]["parameters"]["path"];

const tokenRequest: TokenBody = {
  grant_type: "client_credentials",
  client_id: "ci",
  client_secret: "s3cret",
  audience: "service",
};
const tokenForm: TokenForm = { grant_type: "client_credentials" };

function bearer(token: Token): string {
  const kind: string = token.token_type;
  const seconds: number = token.expires_in;
  return `${kind} ${token.access_token} (${seconds} s)`;
}

const create: CreateBody = {
  name: "Errors",
  description: "errors to the vendor",
  template: "({vertices: [{type: 'source', name: 'src'}], edges: []})",
  inputSchema: { type: "object", properties: { level: { type: "string" } }, required: ["level"] },
  inputs: { input: "src" },
  outputs: { output: "src" },
  draftOutputs: [{ name: "preview", vertex: "src", description: null }],
};

// What a client does with a created template: send it back as the next version.
function nextVersion(created: Created, name: string): UpdateBody {
  return {
    name,
    template: created.template,
    description: created.description,
    inputSchema: created.inputSchema,
    inputs: created.inputs,
    outputs: created.outputs,
    draftOutputs: created.draftOutputs,
    version: created.version + 1,
  };
}

function describe(updated: Updated, listed: Listed, readBack: ReadBack): string[] {
  const latest: Schemas["TemplateOut"] = readBack.items[readBack.items.length - 1];
  const names: string[] = listed.items.map((summary) => `${summary.id}@${summary.version}: ${summary.name}`);
  const same: boolean = latest.sourceHash === updated.sourceHash && latest.isLatest;
  return [...names, `${updated.id} v${updated.version} ${same ? "read back" : "differs"}`];
}

function retry(conflict: Conflict): number | undefined {
  return conflict.currentVersion == null ? undefined : conflict.currentVersion + 1;
}

const path: ReadPath = { id: "mF3k2V9qTzX1bQ7w" };
const query: ReadQuery = { latest: true, version: 2 };

// @ts-expect-error `version` is an integer, not a string.
const wrongVersion: UpdateBody = { name: "Errors", template: "x", version: "2" };
// @ts-expect-error `name` is required to create a template.
const noName: CreateBody = { template: "x" };
// @ts-expect-error `inputs` maps names to `vertex[:port]` strings.
const wrongInputs: CreateBody = { name: "Errors", template: "x", inputs: { input: 1 } };
// @ts-expect-error a template answer has no `jobGraph`.
const notAJob: string = ({} as Created).jobGraph;
// @ts-expect-error `latest` is a boolean query parameter.
const wrongQuery: ReadQuery = { latest: "true" };

export const uses = {
  tokenRequest,
  tokenForm,
  bearer,
  create,
  nextVersion,
  describe,
  retry,
  path,
  query,
  wrong: [wrongVersion, noName, wrongInputs, notAJob, wrongQuery],
};
