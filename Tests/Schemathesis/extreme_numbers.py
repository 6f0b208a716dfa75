#!/usr/bin/env python3
"""Extreme numbers against a running `sesame serve` (issue #28: no input may crash a process).

Schemathesis generates values from the OpenAPI schema, so it seldom sends what a schema calls
out of range or mistyped. This script sends, to every parameter and every JSON or form member
the server's own OpenAPI document lists (and to the OAuth endpoints' numeric parameters), each
of a fixed set of extreme texts: 1e30, -1e300, 1e19, 2^63, 2^64, -0, fractions, NaN-like
strings, 400-digit integers. It also sends them in the headers that carry numbers
(Sesame-Challenge-Solution, X-Forwarded-For, Accept-Language q-values) and as the times of
unsigned JWTs presented as bearer tokens, client assertions and subject tokens.

Every answer must be below 500, and the server must be alive afterwards: run.sh checks its pid
and its log for "Fatal error". Standard library only.

Usage: extreme_numbers.py BASE_URL [BEARER_TOKEN]
"""
import base64
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

NUMBERS = [
    "1e30", "-1e300", "1e19", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "123456789012345678901234567890", "1e400", "-1", "-0", "0.5", "1.5e9",
    "4294967296", "2147483648", "9" * 400,
]
STRINGS = ['"NaN"', '"Infinity"', '"-inf"', '"1e30"', '"0x7fffffffffffffff"', '"99999999999999999999"']
# As text (query, form, header): the numbers, the strings unquoted, and some parser traps.
TEXTS = NUMBERS + [s.strip('"') for s in STRINGS] + ["", " 1", "+1", "1_000", "nan", "inf", "-", "1e", "0x10"]

class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer: /authorize sends the browser on to the client's redirect_uri."""

    def redirect_request(self, *args, **kwargs):
        return None


opener = urllib.request.build_opener(NoRedirect)
base = sys.argv[1].rstrip("/")
bearer = sys.argv[2] if len(sys.argv) > 2 else None
failures = []
sent = 0


def request(method, path, body=None, headers=None, content_type=None):
    global sent
    sent += 1
    data = None
    all_headers = dict(headers or {})
    if body is not None:
        data = body.encode() if isinstance(body, str) else body
        all_headers["Content-Type"] = content_type or "application/json"
    req = urllib.request.Request(base + path, data=data, method=method, headers=all_headers)
    try:
        with opener.open(req, timeout=20) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except Exception as error:  # the server closed the connection or died
        failures.append(f"{method} {path}: no answer ({error})")
        return
    if status >= 500:
        failures.append(f"{method} {path} {body if body is not None else ''}: {status}"[:300])


def unsigned_jwt(claims, typ="JWT"):
    def part(obj_text):
        return base64.urlsafe_b64encode(obj_text.encode()).rstrip(b"=").decode()
    header = part(json.dumps({"alg": "ES256", "typ": typ, "kid": "k1"}))
    return f"{header}.{part(claims)}.{part('signature')}"


def jwt_with(claim, value):
    claims = {"iss": base, "sub": "alice", "aud": base, "exp": "1", "iat": "1", "auth_time": "1", "jti": "j"}
    members = ",".join(f'"{k}":{value if k == claim else (json.dumps(v) if k in ("iss", "sub", "aud", "jti") else v)}'
                       for k, v in claims.items())
    return "{" + members + "}"


def openapi_operations():
    with urllib.request.urlopen(base + "/api/openapi.json", timeout=20) as response:
        document = json.load(response)
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method.upper(), operation, document


def resolve(schema, document):
    while isinstance(schema, dict) and "$ref" in schema:
        node = document
        for piece in schema["$ref"].lstrip("#/").split("/"):
            node = node.get(piece, {})
        schema = node
    return schema or {}


def fuzz_openapi():
    auth = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    for path, method, operation, document in openapi_operations():
        concrete = path
        for parameter in operation.get("parameters", []):
            if parameter.get("in") == "path":
                concrete = concrete.replace("{" + parameter["name"] + "}", "1")
        for parameter in operation.get("parameters", []):
            name, where = parameter.get("name"), parameter.get("in")
            for text in TEXTS:
                if where == "query":
                    request(method, concrete + "?" + urllib.parse.urlencode({name: text}), headers=auth)
                elif where == "header" and "\n" not in text:
                    request(method, concrete, headers={**auth, name: text})
                elif where == "path":
                    request(method, path.replace("{" + name + "}", urllib.parse.quote(text, safe="")) or "/", headers=auth)
        content = (operation.get("requestBody") or {}).get("content", {})
        for media, spec in content.items():
            schema = resolve(spec.get("schema", {}), document)
            members = list((schema.get("properties") or {}).keys()) or ["value"]
            for member in members:
                for value in NUMBERS + STRINGS:
                    if "json" in media:
                        body = "{" + json.dumps(member) + ":" + value + "}"
                        request(method, concrete, body, headers=auth)
                        # Nested one level and as an array element, where schemas take objects.
                        request(method, concrete, "{" + json.dumps(member) + ":[" + value + "]}", headers=auth)
                    else:
                        body = urllib.parse.urlencode({member: value.strip('"')})
                        request(method, concrete, body, headers=auth, content_type=media)
            for value in NUMBERS + STRINGS:
                if "json" in media:
                    request(method, concrete, value, headers=auth)  # the whole body a number


def fuzz_oauth():
    form = "application/x-www-form-urlencoded"
    numeric = ["max_age", "expires_in", "nonce", "display", "prompt", "acr_values", "code_verifier", "client_id",
               "request_uri", "login_hint", "ui_locales", "claims", "scope", "state"]
    authorize = {"response_type": "code", "client_id": "schemathesis-app", "redirect_uri": "http://127.0.0.1/callback",
                 "scope": "openid", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                 "code_challenge_method": "S256", "state": "s", "nonce": "n"}
    for text in TEXTS:
        for name in numeric:
            request("GET", "/authorize?" + urllib.parse.urlencode({**authorize, name: text}))
            request("POST", "/authorize-challenge", urllib.parse.urlencode({**authorize, name: text}), content_type=form)
        request("POST", "/authorize-challenge",
                urllib.parse.urlencode({"client_id": "schemathesis-app", "username": "alice", "max_age": text}),
                content_type=form)
        for grant in ["client_credentials", "refresh_token", "authorization_code", "password",
                      "urn:ietf:params:oauth:grant-type:token-exchange", "urn:ietf:params:oauth:grant-type:device_code"]:
            request("POST", "/token", urllib.parse.urlencode(
                {"grant_type": grant, "client_id": "schemathesis-app", "expires_in": text, "max_age": text,
                 "requested_token_lifetime": text}), content_type=form)
        # Numbers in headers.
        request("POST", "/authorize-challenge", urllib.parse.urlencode({"client_id": "schemathesis-app"}),
                headers={"Sesame-Challenge-Solution": f"token:{text}", "X-Forwarded-For": text,
                         "Accept-Language": f"en;q={text}, de;q={text}"}, content_type=form)
        request("GET", "/login?" + urllib.parse.urlencode({"max_age": text}), headers={"Accept-Language": f"fr;q={text}"})
    # Unsigned JWTs whose times are extreme, wherever the server reads a JWT.
    for value in NUMBERS + STRINGS:
        for claim in ["exp", "iat", "auth_time", "nbf"]:
            token = unsigned_jwt(jwt_with(claim, value))
            at = unsigned_jwt(jwt_with(claim, value), typ="at+jwt")
            request("GET", "/userinfo", headers={"Authorization": f"Bearer {at}"})
            request("GET", "/api/account/profile", headers={"Authorization": f"Bearer {at}"})
            request("POST", "/introspect", urllib.parse.urlencode({"token": at, "client_id": "schemathesis-app"}),
                    content_type=form)
            request("POST", "/revoke", urllib.parse.urlencode({"token": at, "client_id": "schemathesis-app"}),
                    content_type=form)
            request("POST", "/token", urllib.parse.urlencode({
                "grant_type": "client_credentials", "client_id": "schemathesis-app", "client_assertion": token,
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}), content_type=form)
            request("POST", "/token", urllib.parse.urlencode({
                "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": "schemathesis-app",
                "subject_token": token, "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
                "subject_issuer": "google", "actor_token": "x",
                "actor_token_type": "urn:openid:params:token-type:device-secret", "audience": base}), content_type=form)
            request("GET", "/authorize?" + urllib.parse.urlencode({
                "response_type": "code", "client_id": "schemathesis-app", "redirect_uri": "http://127.0.0.1/callback",
                "scope": "openid", "id_token_hint": token, "prompt": "none"}))
            request("GET", "/logout?" + urllib.parse.urlencode({"id_token_hint": token}))


fuzz_oauth()
fuzz_openapi()
print(f"extreme numbers: {sent} requests, {len(failures)} answered 5xx or not at all")
for failure in failures[:40]:
    print("  " + failure)
sys.exit(1 if failures else 0)
