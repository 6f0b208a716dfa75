"""A first-party access token for the schemathesis run: native sign-in at /authorize-challenge
(draft-ietf-oauth-first-party-apps) with PKCE S256, then the authorization_code grant at /token.
Usage: token.py BASE_URL CLIENT_ID USERNAME PASSWORD; prints the access token."""
import base64, hashlib, json, os, sys, urllib.parse, urllib.request

base, client_id, username, password = sys.argv[1:5]
verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()

def post(path, form):
    request = urllib.request.Request(
        base + path, data=urllib.parse.urlencode(form).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)

code = post("/authorize-challenge", {
    "client_id": client_id, "username": username, "password": password,
    "code_challenge": challenge, "code_challenge_method": "S256",
    "scope": "openid profile email offline_access"})["authorization_code"]
tokens = post("/token", {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                          "client_id": client_id})
print(tokens["access_token"])
