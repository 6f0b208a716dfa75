import Foundation
import SesameProtocol

/// The Lua scripts that shape wrk's requests (https://github.com/wg/wrk/blob/master/SCRIPTING).
enum WrkScripts {
    /// Prints the machine-readable summary that ``WrkLoad/parse(_:)`` reads.
    static let summary = """
        function done(summary, latency, requests)
          local e = summary.errors
          io.write(string.format("SESAME requests=%d duration_us=%d non2xx=%d socket_errors=%d p50_us=%d p99_us=%d\\n",
            summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
            latency:percentile(50), latency:percentile(99)))
        end
        """

    /// refresh_token grant (RFC 6749 §6) with rotation: a queue of live refresh tokens, read
    /// from the file named by `SESAME_TOKENS` (one per line, at least one per connection).
    /// Each request takes the oldest; each response puts back the rotated one it carries.
    /// With `dpop`, each request also takes the next proof of `SESAME_PROOFS` (RFC 9449: one
    /// proof per request, each used once).
    /// `tokenPath`: the peer's token endpoint when the same load runs against another server.
    static func refresh(clientID: String, dpop: Bool = false, tokenPath: String = "/token") -> String {
        """
        queue = {}
        for line in io.lines(os.getenv("SESAME_TOKENS")) do table.insert(queue, line) end
        proofs = {}
        proofIndex = 0
        if \(dpop ? "true" : "false") then
          for line in io.lines(os.getenv("SESAME_PROOFS")) do table.insert(proofs, line) end
        end
        function request()
          local token = table.remove(queue, 1) or "exhausted"
          local headers = {["Content-Type"] = "application/x-www-form-urlencoded"}
          if #proofs > 0 then
            proofIndex = proofIndex + 1
            headers["DPoP"] = proofs[proofIndex] or "exhausted"
          end
          return wrk.format("POST", "\(tokenPath)", headers,
            "grant_type=refresh_token&client_id=\(clientID)&refresh_token=" .. token)
        end
        function response(status, headers, body)
          local token = string.match(body, '"refresh_token":"([^"]+)"')
          if token then table.insert(queue, token) end
        end
        \(summary)
        """
    }

    /// RFC 8628 §3.4 polls: the device codes of `SESAME_DEVICE_CODES` in turn, each request
    /// one poll of the next (every answer is a 400 `authorization_pending` while nobody approves).
    static func devicePoll(clientID: String) -> String {
        """
        codes = {}
        for line in io.lines(os.getenv("SESAME_DEVICE_CODES")) do table.insert(codes, line) end
        index = 0
        function request()
          index = index % #codes + 1
          return wrk.format("POST", "/token", {["Content-Type"] = "application/x-www-form-urlencoded"},
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&client_id=\(clientID)&device_code=" .. codes[index])
        end
        \(summary)
        """
    }

    /// Where a browser's sign-in goes on one server: its authorization and token endpoints,
    /// the prefix of its session cookie, and what else its authorization request carries
    /// (glewlwyd's `g_continue`, the mark its login page adds once the session is enough).
    struct SignInPaths: Sendable {
        var authorize = "/authorize"
        var token = "/token"
        var cookiePrefix = "sesame_session="
        var extraQuery = ""
        var scope = "openid%20profile"
    }

    /// Browser single sign-on with PKCE: a GET of the authorization endpoint carrying a session
    /// cookie of `SESAME_SESSIONS` (the sessions in turn) is answered with a redirect carrying a
    /// code; each code is then exchanged at the token endpoint (RFC 6749 §4.1.3) by the next
    /// request. Every request that finds a code waiting exchanges it; the others start a sign-in.
    static func browserSSO(clientID: String, pkce: PKCE, paths: SignInPaths = SignInPaths()) -> String {
        let redirect = "http%3A%2F%2F127.0.0.1%2Fcallback"
        return """
            sessions = {}
            for line in io.lines(os.getenv("SESAME_SESSIONS")) do table.insert(sessions, line) end
            codes = {}
            index = 0
            function request()
              local code = table.remove(codes, 1)
              if code then
                return wrk.format("POST", "\(paths.token)", {["Content-Type"] = "application/x-www-form-urlencoded"},
                  "grant_type=authorization_code&client_id=\(clientID)&redirect_uri=\(redirect)&code_verifier=\(pkce.verifier)&code=" .. code)
              end
              index = index % #sessions + 1
              return wrk.format("GET",
                "\(paths.authorize)?response_type=code&client_id=\(clientID)&redirect_uri=\(redirect)&scope=\(paths.scope)&state=s&nonce=n&code_challenge=\(pkce.challenge)&code_challenge_method=S256\(paths.extraQuery)",
                {["Cookie"] = "\(paths.cookiePrefix)" .. sessions[index]})
            end
            function response(status, headers, body)
              -- Nothing written per response: the benchmark reads wrk's output only at the end, so
              -- a line per failure would fill the pipe and stop wrk; `summary` counts them.
              local location = headers["location"] or headers["Location"]
              if location then
                local code = string.match(location, "[?&]code=([^&]+)")
                if code then table.insert(codes, code) end
              end
            end
            \(summary)
            """
    }

    /// The native password sign-in of a first-party app (draft-ietf-oauth-first-party-apps §5.1,
    /// `/authorize-challenge`): one POST with the username and password, answered with an
    /// authorization code (its exchange is the token endpoint's, measured by the SSO rows).
    static func passwordSignIn(clientID: String, username: String, password: String, pkce: PKCE) -> String {
        let body = "client_id=\(clientID)&scope=openid&code_challenge=\(pkce.challenge)&code_challenge_method=S256"
            + "&username=\(username)&password=\(password.replacingOccurrences(of: " ", with: "+"))"
        return """
            wrk.method = "POST"
            wrk.path = "/authorize-challenge"
            wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
            wrk.body = "\(body)"
            \(summary)
            """
    }

    /// client_credentials grant with client_secret_basic (RFC 6749 §4.4, §2.3.1).
    static func clientCredentials(clientID: String, secret: String, tokenPath: String = "/token") -> String {
        let basic = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        return """
            wrk.method = "POST"
            wrk.path = "\(tokenPath)"
            wrk.body = "grant_type=client_credentials&scope=api"
            wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
            wrk.headers["Authorization"] = "Basic \(basic)"
            \(summary)
            """
    }

    /// POST to the token endpoint naming no client: refused with `invalid_client` before any
    /// store access (``RefusalCheck``).
    static let refusedWithoutClient = """
        wrk.method = "POST"
        wrk.path = "/token"
        wrk.body = "\(RefusalCheck.body)"
        wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
        \(summary)
        """

    /// GET of the discovery document (OIDC Discovery §4).
    static let discovery = discovery(path: "/.well-known/openid-configuration")

    static func discovery(path: String) -> String {
        """
        wrk.path = "\(path)"
        \(summary)
        """
    }

    /// GET of the UserInfo endpoint with one access token (OIDC Core §5.3, RFC 6750 §2.1).
    static func userinfo(path: String, accessToken: String) -> String {
        """
        wrk.path = "\(path)"
        wrk.headers["Authorization"] = "Bearer \(accessToken)"
        \(summary)
        """
    }
}
