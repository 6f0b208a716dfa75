import Foundation

/// A person signing in on a hosted login page over real HTTP (Sesame's, or another OpenID
/// provider's with a username and password form): from the authorization URL through every
/// redirect and the login form to the redirect back to the app, which is returned **without
/// being followed**. A browser session that signs in at once (single sign-on) needs no form.
///
/// Narrates each hop to ``say`` when given one, never with the password, the code or `state`:
/// only field names and redacted values.
public struct HostedLogin: Sendable {
    public let username: String
    public let password: String
    /// Receives one line per hop.
    public let say: @Sendable (String) -> Void

    static let maximumHops = 8

    public init(username: String, password: String, say: @escaping @Sendable (String) -> Void = { _ in }) {
        self.username = username
        self.password = password
        self.say = say
    }

    /// Signs in from `authorizationURL` in `browser` (a new one unless given, so its cookies
    /// can be kept for later requests); the redirect to the app's `redirect_uri`, which is read
    /// from the URL unless given (a pushed request's URL carries only `client_id` and
    /// `request_uri`, RFC 9126 §4).
    public func signIn(
        at authorizationURL: URL, redirectURI known: URL? = nil, in browser: ScriptedBrowser = ScriptedBrowser()
    ) async throws -> URL {
        guard let redirect = known ?? Self.queryValue("redirect_uri", in: authorizationURL).flatMap(URL.init(string:))
        else {
            throw ScriptedBrowserError("the authorization URL has no redirect_uri")
        }
        var page = try await browser.get(authorizationURL)
        say("GET \(Self.pathOnly(authorizationURL)) → \(Self.describe(page))")
        var submitted = false
        for _ in 0..<Self.maximumHops {
            if (300..<400).contains(page.status), let location = page.location {
                if Self.isRedirect(location, to: redirect) {
                    return location
                }
                page = try await browser.get(location)
                say("GET \(Self.pathOnly(location)) → \(Self.describe(page))")
                continue
            }
            guard page.status == 200, let form = HTMLForm.loginForm(in: page.body) else {
                throw ScriptedBrowserError(
                    "the login page at \(Self.pathOnly(page.url)) answered HTTP \(page.status) without a login form",
                    hint: "Check the server log.")
            }
            if submitted {
                throw ScriptedBrowserError(
                    "the login page was shown again after submitting the credentials of \(username)",
                    hint: "Check the username and password.")
            }
            submitted = true
            guard let action = URL(string: form.action, relativeTo: page.url)?.absoluteURL else {
                throw ScriptedBrowserError("the login form's action '\(form.action)' is not a URL")
            }
            let fields = form.fields(username: username, password: password)
            page = try await browser.post(action, fields: fields)
            say("POST \(Self.pathOnly(action)) (\(Self.summary(of: fields, in: form))) → \(Self.describe(page))")
        }
        throw ScriptedBrowserError("the login did not come back to \(redirect.absoluteString) after \(Self.maximumHops) hops")
    }

    /// `username=alice, password=<hidden>, 10 hidden fields incl. csrf_token`: what a person
    /// typed, and how much the page carried along, without any value that could be secret.
    static func summary(of fields: [(String, String)], in form: HTMLForm) -> String {
        var typed: [String] = []
        var hidden: [String] = []
        for (name, value) in fields {
            switch form.inputs.first(where: { $0.name == name })?.type {
            case "password": typed.append("\(name)=<hidden>")
            case "text", "email": typed.append("\(name)=\(value)")
            default: hidden.append(name)
            }
        }
        if !hidden.isEmpty {
            let csrf = hidden.first { $0.lowercased().contains("csrf") }
            typed.append(
                "\(hidden.count) hidden field\(hidden.count == 1 ? "" : "s")"
                    + (csrf.map { " incl. \($0)" } ?? ""))
        }
        return typed.joined(separator: ", ")
    }

    /// `true` when `location` is the app's redirect URI (scheme, host, port and path).
    static func isRedirect(_ location: URL, to redirect: URL) -> Bool {
        location.scheme == redirect.scheme && location.host == redirect.host
            && location.port == redirect.port && location.path == redirect.path
    }

    static func queryValue(_ name: String, in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == name }?.value
    }

    /// `scheme://host:port/path` without the query (which may carry secrets).
    static func pathOnly(_ url: URL) -> String {
        url.path.isEmpty ? "/" : url.path
    }

    /// A redirect URL with every query value redacted except `iss` and `error`.
    public static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return pathOnly(url)
        }
        components.queryItems = components.queryItems?.map { item in
            item.name == "iss" || item.name == "error"
                ? item : URLQueryItem(name: item.name, value: "<redacted>")
        }
        return components.string?.removingPercentEncoding ?? pathOnly(url)
    }

    static func describe(_ page: ScriptedBrowser.Page) -> String {
        if (300..<400).contains(page.status), let location = page.location {
            return "\(page.status) to \(redacted(location))"
        }
        if page.status == 200, HTMLForm.loginForm(in: page.body) != nil {
            return "200 login page"
        }
        return "\(page.status)"
    }
}
