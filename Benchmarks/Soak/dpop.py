"""DPoP proofs (RFC 9449 §4) for the soak, with ES256 (ECDSA over P-256, RFC 7518 §3.4) in
plain Python: the soak must run on a machine with only Python's standard library. Slow (a few
milliseconds a signature) but correct; the server checks every proof it gets, so a wrong one
shows as `invalid_dpop_proof` in the soak's counts.

The curve's constants are those of SEC 2 §2.4.2 (secp256r1).
"""
import base64, hashlib, json, secrets, time

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
A = P - 3
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def _double(point):
    """Jacobian doubling (X, Y, Z)."""
    x, y, z = point
    if y == 0:
        return (0, 1, 0)
    yy = y * y % P
    s = 4 * x * yy % P
    m = (3 * x * x + A * pow(z, 4, P)) % P
    nx = (m * m - 2 * s) % P
    ny = (m * (s - nx) - 8 * yy * yy) % P
    return (nx, ny, 2 * y * z % P)


def _add(p1, p2):
    """Jacobian addition."""
    if p1[2] == 0:
        return p2
    if p2[2] == 0:
        return p1
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    z1z1, z2z2 = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2z2 % P, x2 * z1z1 % P
    s1, s2 = y1 * z2 * z2z2 % P, y2 * z1 * z1z1 % P
    if u1 == u2:
        return _double(p1) if s1 == s2 else (0, 1, 0)
    h, r = (u2 - u1) % P, (s2 - s1) % P
    hh = h * h % P
    hhh = h * hh % P
    v = u1 * hh % P
    nx = (r * r - hhh - 2 * v) % P
    ny = (r * (v - nx) - s1 * hhh) % P
    return (nx, ny, h * z1 * z2 % P)


def _multiply(k, point):
    result, addend = (0, 1, 0), (point[0], point[1], 1)
    while k:
        if k & 1:
            result = _add(result, addend)
        addend = _double(addend)
        k >>= 1
    x, y, z = result
    zi = pow(z, -1, P)
    return (x * zi * zi % P, y * zi * zi * zi % P)


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class DPoPKey:
    """A fresh P-256 key pair; ``proof`` signs a DPoP proof JWT with it."""

    def __init__(self):
        self.private = secrets.randbelow(N - 1) + 1
        x, y = _multiply(self.private, G)
        self.jwk = {"kty": "EC", "crv": "P-256", "x": _b64(x.to_bytes(32, "big")), "y": _b64(y.to_bytes(32, "big"))}

    def _sign(self, message):
        z = int.from_bytes(hashlib.sha256(message).digest(), "big")
        while True:
            k = secrets.randbelow(N - 1) + 1
            r = _multiply(k, G)[0] % N
            if r == 0:
                continue
            s = pow(k, -1, N) * (z + r * self.private) % N
            if s != 0:
                return r.to_bytes(32, "big") + s.to_bytes(32, "big")

    def proof(self, method, url, nonce=None, access_token=None):
        """A DPoP proof for `method` `url` (RFC 9449 §4.2), with the server's nonce if it gave one."""
        header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}
        claims = {"jti": secrets.token_urlsafe(16), "htm": method, "htu": url, "iat": int(time.time())}
        if nonce:
            claims["nonce"] = nonce
        if access_token:
            claims["ath"] = _b64(hashlib.sha256(access_token.encode()).digest())
        signing_input = (_b64(json.dumps(header, separators=(",", ":")).encode()) + "." +
                         _b64(json.dumps(claims, separators=(",", ":")).encode()))
        return signing_input + "." + _b64(self._sign(signing_input.encode()))
