#!/usr/bin/env python3
"""A person logs in to a jobgraph service with authlib as the OAuth client: the authorization
code flow with PKCE (S256), then refreshes, and the attacks the service must refuse.

authlib's OAuth2Session builds the authorization URL (with code_verifier → S256
code_challenge and a random state), checks the state of the redirect and exchanges the code
(fetch_token with the verifier), and refreshes (refresh_token). The login form itself is
read and posted with requests, as a browser without JavaScript would: its hidden fields and
cookie as served, the organization, user name and password typed.

    target/peers-venv/bin/python tests/peers/oauth_login.py --url http://127.0.0.1:PORT \
        --org acme --user alice --password '...' [--client-id jobgraph-cli]

Checks, each recorded in the summary's "checks" (name -> what was seen):
  login              code + PKCE → access_token (expires_in 86400) and refresh_token
  api_as_person      GET /v1/jobs with the token → 200
  refresh            refresh_token grant → new access and refresh tokens, both different
  refresh_reuse      the spent refresh token again → 400 invalid_grant
  family_revoked     then the newest refresh token → invalid_grant, its access token → 401
  code_reuse         a code exchanged twice → invalid_grant, its tokens then → 401
  wrong_verifier     a code with another verifier → invalid_grant
  wrong_password     the form with a wrong password → 401, no redirect, same text as an unknown user
  foreign_redirect   https://evil.example/cb → 400 page, no form, no redirect
  plain_pkce         code_challenge_method=plain → redirect with error=invalid_request
  csrf               the form posted without its cookie → 403, no code
Summary: {"tool":"oauth_login","ok":true,"checks":{...}}; exit 1 on the first failure.
"""

import argparse
import html.parser
import os
import secrets
import sys
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import fail, import_or_die, summary  # noqa: E402

TOOL = "oauth_login"
REDIRECT = "http://127.0.0.1:53117/callback"


class Form(html.parser.HTMLParser):
    """The first form of a page: its action and its inputs' values."""

    def __init__(self):
        super().__init__()
        self.action = None
        self.fields = {}
        self.error = None
        self._in_error = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and self.action is None:
            self.action = a.get("action", "")
        elif tag == "input" and a.get("name"):
            self.fields[a["name"]] = a.get("value", "")
        elif a.get("id") == "error":
            self._in_error = True

    def handle_data(self, data):
        if self._in_error:
            self.error = (self.error or "") + data

    def handle_endtag(self, tag):
        self._in_error = False


def main():
    p = argparse.ArgumentParser(description="Log in to a jobgraph service with authlib (code + PKCE) and check its refusals.")
    p.add_argument("--url", required=True)
    p.add_argument("--org", required=True)
    p.add_argument("--user", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--client-id", default="jobgraph-cli")
    args = p.parse_args()
    requests = import_or_die(TOOL, "requests")
    client_mod = import_or_die(TOOL, "authlib.integrations.requests_client")
    base = args.url.rstrip("/")
    checks = {}

    def expect(name, condition, seen):
        checks[name] = seen
        if not condition:
            fail(TOOL, f"{name}: {seen}", checks=checks)

    def session():
        return client_mod.OAuth2Session(
            args.client_id, redirect_uri=REDIRECT, scope="profile email offline_access",
            code_challenge_method="S256", token_endpoint_auth_method="none")

    def authorize(oauth, verifier, **extra):
        url, state = oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier=verifier, **extra)
        return url, state

    def log_in(password=None, browser=None, verifier=None):
        """The form read and posted: (response of the POST, state, verifier, oauth)."""
        oauth = session()
        verifier = verifier or secrets.token_urlsafe(48)
        url, state = authorize(oauth, verifier)
        browser = browser or requests.Session()
        page = browser.get(url, allow_redirects=False)
        if page.status_code != 200:
            fail(TOOL, f"GET authorize: {page.status_code} {page.text[:300]}", checks=checks)
        form = Form()
        form.feed(page.text)
        fields = dict(form.fields)
        fields.update(organization=args.org, username=args.user,
                      password=password if password is not None else args.password)
        action = urllib.parse.urljoin(page.url, form.action)
        posted = browser.post(action, data=fields, allow_redirects=False)
        return posted, state, verifier, oauth

    def code_of(location):
        return urllib.parse.parse_qs(urllib.parse.urlparse(location).query).get("code", [None])[0]

    # The flow, as the command-line client would run it.
    posted, state, verifier, oauth = log_in()
    location = posted.headers.get("Location", "")
    expect("redirect", posted.status_code == 303 and location.startswith(REDIRECT),
           {"status": posted.status_code, "location": location[:80]})
    token = oauth.fetch_token(f"{base}/oauth/token", authorization_response=location,
                              code_verifier=verifier, state=state)
    expect("login", token.get("expires_in") == 86400 and token.get("access_token") and token.get("refresh_token"),
           {k: (v if k in ("expires_in", "token_type", "scope") else bool(v)) for k, v in token.items()})
    api = requests.get(f"{base}/v1/jobs", headers={"Authorization": f"Bearer {token['access_token']}"})
    expect("api_as_person", api.status_code == 200, {"status": api.status_code})

    refreshed = oauth.refresh_token(f"{base}/oauth/token", refresh_token=token["refresh_token"])
    expect("refresh", refreshed["access_token"] != token["access_token"]
           and refreshed["refresh_token"] != token["refresh_token"],
           {"new_access": refreshed["access_token"] != token["access_token"],
            "new_refresh": refreshed["refresh_token"] != token["refresh_token"]})
    api = requests.get(f"{base}/v1/jobs", headers={"Authorization": f"Bearer {refreshed['access_token']}"})
    expect("api_after_refresh", api.status_code == 200, {"status": api.status_code})

    def raw_token(data):
        r = requests.post(f"{base}/oauth/token", data=data)
        try:
            body = r.json()
        except ValueError:
            body = {"text": r.text[:200]}
        return r.status_code, body

    status, body = raw_token({"grant_type": "refresh_token", "refresh_token": token["refresh_token"],
                              "client_id": args.client_id})
    expect("refresh_reuse", status == 400 and body.get("error") == "invalid_grant", {"status": status, "body": body})
    status, body = raw_token({"grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"],
                              "client_id": args.client_id})
    api = requests.get(f"{base}/v1/jobs", headers={"Authorization": f"Bearer {refreshed['access_token']}"})
    expect("family_revoked", status == 400 and body.get("error") == "invalid_grant" and api.status_code == 401,
           {"refresh": status, "error": body.get("error"), "api": api.status_code})

    # A code used twice: refused, and the tokens it gave revoked.
    posted, state, verifier, oauth = log_in()
    code = code_of(posted.headers.get("Location", ""))
    exchange = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                "code_verifier": verifier, "client_id": args.client_id}
    first_status, first = raw_token(exchange)
    second_status, second = raw_token(exchange)
    api = requests.get(f"{base}/v1/jobs", headers={"Authorization": f"Bearer {first.get('access_token')}"})
    expect("code_reuse", first_status == 200 and second_status == 400 and second.get("error") == "invalid_grant"
           and api.status_code == 401,
           {"first": first_status, "second": second_status, "error": second.get("error"), "api": api.status_code})

    # Another verifier than the challenge's.
    posted, state, verifier, oauth = log_in()
    code = code_of(posted.headers.get("Location", ""))
    status, body = raw_token({"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                              "code_verifier": secrets.token_urlsafe(48), "client_id": args.client_id})
    expect("wrong_verifier", status == 400 and body.get("error") == "invalid_grant", {"status": status, "body": body})

    # A wrong password and an unknown user: the same answer, no code.
    posted, *_ = log_in(password="not the password at all")
    wrong = Form()
    wrong.feed(posted.text)
    saved_user = args.user
    args.user = "nobody-" + secrets.token_hex(4)
    unknown_posted, *_ = log_in(password="not the password at all")
    args.user = saved_user
    unknown = Form()
    unknown.feed(unknown_posted.text)
    expect("wrong_password", posted.status_code == 401 and "Location" not in posted.headers
           and unknown_posted.status_code == 401 and wrong.error == unknown.error,
           {"status": posted.status_code, "unknown_status": unknown_posted.status_code,
            "error": wrong.error, "unknown_error": unknown.error})

    # A redirect URI off loopback: an error page, never a form nor a redirect.
    evil = client_mod.OAuth2Session(args.client_id, redirect_uri="https://evil.example/cb",
                                    code_challenge_method="S256")
    url, _ = evil.create_authorization_url(f"{base}/oauth/authorize", code_verifier=secrets.token_urlsafe(48))
    page = requests.get(url, allow_redirects=False)
    expect("foreign_redirect", page.status_code == 400 and "<form" not in page.text and "Location" not in page.headers,
           {"status": page.status_code, "form": "<form" in page.text})

    # PKCE without S256.
    plain = client_mod.OAuth2Session(args.client_id, redirect_uri=REDIRECT)
    url, _ = plain.create_authorization_url(f"{base}/oauth/authorize", code_challenge="x" * 43,
                                            code_challenge_method="plain")
    page = requests.get(url, allow_redirects=False)
    location = page.headers.get("Location", "")
    expect("plain_pkce", page.status_code == 303 and "error=invalid_request" in location,
           {"status": page.status_code, "location": location[:120]})

    # The form posted by another page (no cookie): refused.
    oauth = session()
    url, _ = authorize(oauth, secrets.token_urlsafe(48))
    page = requests.get(url)
    form = Form()
    form.feed(page.text)
    fields = dict(form.fields, organization=args.org, username=args.user, password=args.password)
    posted = requests.post(urllib.parse.urljoin(page.url, form.action), data=fields, allow_redirects=False)
    expect("csrf", posted.status_code == 403 and "Location" not in posted.headers, {"status": posted.status_code})

    summary({"tool": TOOL, "ok": True, "checks": checks})


if __name__ == "__main__":
    main()
