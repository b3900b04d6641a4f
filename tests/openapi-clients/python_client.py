"""Drives a running `jobgraph serve` with the client openapi-python-client generated from its
/openapi.json (package `jobgraph_openapi_client`): a token by client credentials, then a
template created, updated, listed and read back, every value checked. Run by
scripts/openapi-clients.sh, which sets JOBGRAPH_BASE_URL, JOBGRAPH_CLIENT_ID,
JOBGRAPH_CLIENT_SECRET, JOBGRAPH_ORG and PYTHONPATH (the generated package)."""

import os
from http import HTTPStatus

from jobgraph_openapi_client import AuthenticatedClient, Client
from jobgraph_openapi_client.api.auth import issue_token
from jobgraph_openapi_client.api.templates import (
    create_template,
    get_template,
    list_templates,
    update_template,
)
from jobgraph_openapi_client.models import (
    DraftOutputDoc,
    ErrorBody,
    ItemsTemplateOut,
    ItemsTemplateSummary,
    TemplateCreateDoc,
    TemplateCreateDocInputSchemaType0,
    TemplateCreateDocInputsType0,
    TemplateCreateDocOutputsType0,
    TemplateOut,
    TemplateUpdateDoc,
    TemplateUpdateDocInputsType0,
    TemplateUpdateDocOutputsType0,
    TokenForm,
    TokenRequest,
    TokenResponse,
)
from jobgraph_openapi_client.types import UNSET

BASE = os.environ["JOBGRAPH_BASE_URL"]
CLIENT_ID = os.environ["JOBGRAPH_CLIENT_ID"]
SECRET = os.environ["JOBGRAPH_CLIENT_SECRET"]
ORG = os.environ["JOBGRAPH_ORG"]


def check(what, condition, detail=""):
    if not condition:
        raise SystemExit(f"FAILED: {what} {detail}")
    print(f"ok   {what}")


def expect(response, status, kind, what):
    """The parsed body of `response`, which must have `status` and parse as `kind`."""
    check(
        f"{what}: {int(status)} {kind.__name__}",
        response.status_code == status and isinstance(response.parsed, kind),
        f"(got {int(response.status_code)}: {response.content[:300]!r})",
    )
    return response.parsed


SCRIPT_V1 = "({vertices: [{type: 'source', name: 'src'}, {type: 'sink', name: 'out'}], edges: ['src -> out']})"
SCRIPT_V2 = "({vertices: [{type: 'source', name: 'src'}, {type: 'sink', name: 'dst'}], edges: ['src -> dst']})"


def main():
    anonymous = Client(base_url=BASE, raise_on_unexpected_status=True)

    # Tokens: JSON body, form body, and a wrong secret.
    token = expect(
        issue_token.sync_detailed(
            client=anonymous,
            body=TokenRequest(
                grant_type="client_credentials",
                client_id=CLIENT_ID,
                client_secret=SECRET,
                audience="service",
            ),
        ),
        HTTPStatus.OK,
        TokenResponse,
        "POST /oauth/token (JSON)",
    )
    check("token_type is Bearer", token.token_type == "Bearer", token.token_type)
    check("expires_in is positive", token.expires_in > 0, token.expires_in)
    form_token = expect(
        issue_token.sync_detailed(
            client=anonymous,
            body=TokenForm(
                grant_type="client_credentials", client_id=CLIENT_ID, client_secret=SECRET
            ),
        ),
        HTTPStatus.OK,
        TokenResponse,
        "POST /oauth/token (form-encoded)",
    )
    check("form token differs", form_token.access_token != token.access_token)
    refused = expect(
        issue_token.sync_detailed(
            client=anonymous,
            body=TokenRequest(
                grant_type="client_credentials", client_id=CLIENT_ID, client_secret="wrong"
            ),
        ),
        HTTPStatus.UNAUTHORIZED,
        ErrorBody,
        "POST /oauth/token, wrong secret",
    )
    check("error is invalid_client", refused.error == "invalid_client", refused.error)

    client = AuthenticatedClient(
        base_url=BASE, token=token.access_token, raise_on_unexpected_status=True
    )
    unauthenticated = AuthenticatedClient(
        base_url=BASE, token="not-a-token", raise_on_unexpected_status=True
    )
    expect(
        list_templates.sync_detailed(client=unauthenticated),
        HTTPStatus.UNAUTHORIZED,
        ErrorBody,
        "GET /v1/templates with a bad token",
    )

    # Create.
    created = expect(
        create_template.sync_detailed(
            client=client,
            body=TemplateCreateDoc(
                name="Errors",
                description="errors to the vendor",
                template=SCRIPT_V1,
                input_schema=TemplateCreateDocInputSchemaType0.from_dict(
                    {"type": "object", "properties": {"level": {"type": "string"}}, "required": ["level"]}
                ),
                inputs=TemplateCreateDocInputsType0.from_dict({"input": "src"}),
                outputs=TemplateCreateDocOutputsType0.from_dict({"output": "out"}),
                draft_outputs=[DraftOutputDoc(name="preview", vertex="src", description="raw")],
            ),
        ),
        HTTPStatus.CREATED,
        TemplateOut,
        "POST /v1/templates",
    )
    check("version 1", created.version == 1, created.version)
    check("name", created.name == "Errors", created.name)
    check("organization", created.organization_id == ORG, created.organization_id)
    check("edited by the client", created.edited_by == CLIENT_ID, created.edited_by)
    check("inputs", created.inputs.to_dict() == {"input": "src"}, created.inputs.to_dict())
    check("outputs", created.outputs.to_dict() == {"output": "out"}, created.outputs.to_dict())
    check(
        "draft outputs",
        [d.to_dict() for d in created.draft_outputs]
        == [{"name": "preview", "vertex": "src", "description": "raw"}],
        created.draft_outputs,
    )
    check("input schema", created.input_schema.to_dict()["required"] == ["level"])
    check("latest", created.is_latest and created.latest)
    template_id = created.id

    # Update, with optimistic concurrency.
    updated = expect(
        update_template.sync_detailed(
            template_id,
            client=client,
            body=TemplateUpdateDoc(
                name="Errors v2",
                template=SCRIPT_V2,
                inputs=TemplateUpdateDocInputsType0.from_dict({"input": "src"}),
                outputs=TemplateUpdateDocOutputsType0.from_dict({"output": "dst"}),
                version=2,
            ),
        ),
        HTTPStatus.OK,
        TemplateOut,
        "PUT /v1/templates/{id} (version 2)",
    )
    check("version 2", updated.version == 2, updated.version)
    check("same id", updated.id == template_id)
    check("new name", updated.name == "Errors v2", updated.name)
    check("new outputs", updated.outputs.to_dict() == {"output": "dst"})
    check("description dropped", updated.description in (None, UNSET), updated.description)
    check("createdAt kept", updated.created_at == created.created_at)
    check("new source hash", updated.source_hash != created.source_hash)
    conflict = expect(
        update_template.sync_detailed(
            template_id,
            client=client,
            body=TemplateUpdateDoc(name="late", template=SCRIPT_V1, version=2),
        ),
        HTTPStatus.CONFLICT,
        ErrorBody,
        "PUT /v1/templates/{id} (version 2 again)",
    )
    check("currentVersion 2", conflict.current_version == 2, conflict.current_version)

    # List.
    listed = expect(
        list_templates.sync_detailed(client=client),
        HTTPStatus.OK,
        ItemsTemplateSummary,
        "GET /v1/templates",
    )
    summaries = [t for t in listed.items if t.id == template_id]
    check("listed once", len(summaries) == 1, len(listed.items))
    check("listed at version 2", summaries[0].version == 2, summaries[0].version)
    check("listed name", summaries[0].name == "Errors v2", summaries[0].name)

    # Read back: latest, all versions, one version.
    latest = expect(
        get_template.sync_detailed(template_id, client=client, latest=True),
        HTTPStatus.OK,
        ItemsTemplateOut,
        "GET /v1/templates/{id}?latest=true",
    )
    check("one item", len(latest.items) == 1, len(latest.items))
    check("read back equals the update", latest.items[0].to_dict() == updated.to_dict())
    every = expect(
        get_template.sync_detailed(template_id, client=client),
        HTTPStatus.OK,
        ItemsTemplateOut,
        "GET /v1/templates/{id}",
    )
    check("versions 1 and 2", [t.version for t in every.items] == [1, 2])
    check("version 1 as created", every.items[0].to_dict() == {**created.to_dict(), "isLatest": False, "latest": False})
    first = expect(
        get_template.sync_detailed(template_id, client=client, version=1),
        HTTPStatus.OK,
        ItemsTemplateOut,
        "GET /v1/templates/{id}?version=1",
    )
    check("version 1 name", first.items[0].name == "Errors", first.items[0].name)
    expect(
        get_template.sync_detailed("no-such-template", client=client),
        HTTPStatus.NOT_FOUND,
        ErrorBody,
        "GET /v1/templates/{unknown id}",
    )
    print("python client: all checks passed")


if __name__ == "__main__":
    main()
