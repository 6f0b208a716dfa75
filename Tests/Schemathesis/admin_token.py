"""An operator's access token for the admin API run of Tests/Schemathesis/run.sh: signs USERNAME in
through CLIENT_ID (first-party, /authorize-challenge, PKCE S256), enrols TOTP through /api/mfa/totp
(playing the authenticator app, RFC 6238), then signs in again as the server's own
sesame-admin-cli client (which no admin operation may change or delete, so the run cannot cut
off its own token) with acr_values multi-factor and the scope sesame:admin, answering the TOTP
step. The caller grants the role (sesame user role).
Usage: admin_token.py BASE_URL CLIENT_ID USERNAME PASSWORD; prints the access token."""
import base64, hashlib, hmac, json, os, struct, sys, time, urllib.error, urllib.parse, urllib.request

base, client_id, username, password = sys.argv[1:5]
MFA = "urn:sesame:acr:mfa"


def call(path, form=None, body=None, token=None):
    headers = {}
    data = None
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        return json.load(error)


def totp(secret, step):
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = (struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
    return "%06d" % value


def sign_in(scope, acr=None, answer=None, client=client_id):
    verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    form = {"client_id": client, "username": username, "password": password, "code_challenge": challenge,
            "code_challenge_method": "S256", "scope": scope}
    if acr:
        form["acr_values"] = acr
    reply = call("/authorize-challenge", form)
    if "authorization_code" not in reply:
        session = reply["auth_session"]
        call("/authorize-challenge", {"auth_session": session, "mfa_method": "totp"})
        reply = call("/authorize-challenge", {"auth_session": session, "mfa_code": answer()})
    tokens = call("/token", {"grant_type": "authorization_code", "code": reply["authorization_code"],
                             "code_verifier": verifier, "client_id": client})
    return tokens["access_token"]


first = sign_in("openid")
enrolment = call("/api/mfa/totp", body={}, token=first)
step = int(time.time()) // 30
call("/api/mfa/totp/confirm", body={"code": totp(enrolment["secret"], step)}, token=first)
# Each step is accepted once: the sign-in answers with the next one.
print(sign_in("openid sesame:admin", MFA, lambda: totp(enrolment["secret"], max(step + 1, int(time.time()) // 30)),
              client="sesame-admin-cli"))
