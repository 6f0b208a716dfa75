import ArgumentParser
import Foundation
import Sesame

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sesame curl URL`: an authenticated request with the current account's access token
/// (RFC 6750 §2.1 `Authorization: Bearer`), refreshed and retried once on a 401 by the SDK.
struct CurlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Make an authenticated HTTP request and print the response body.",
        discussion: """
            The token is only sent to the issuer's origin and to origins allowed with \
            --allow-origin (here, or remembered by `sesame login --allow-origin`).
            Not signed in yet: when the URL answers 401 naming its metadata (RFC 9728), the \
            CLI finds the API's authorization server, registers itself there (RFC 7591) when the \
            server allows it, signs you in with the browser, and sends a token for that API alone.
            Exit status: 0 for HTTP 1xx-3xx; 22 for HTTP 400 or above (like `curl --fail`, but \
            the body is still printed); 1 when no response was received; 2 when not signed in.
            Example: sesame curl https://api.example.com/v1/me -H 'Accept: application/json'
            """)

    @Argument(help: "The URL to request.")
    var url: String
    @Option(name: [.customShort("X"), .customLong("request")], help: "The HTTP method (default GET, or POST with --data).")
    var method: String?
    @Option(name: [.customShort("H"), .customLong("header")], help: "A header 'Name: value' (repeatable).")
    var headers: [String] = []
    @Option(name: [.customShort("d"), .customLong("data")], help: "A request body; @file reads a file, @- reads stdin.")
    var data: String?
    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and response headers first.")
    var include = false
    @Option(name: .customLong("allow-origin"), help: "Also allow sending the token to this origin (repeatable, this run only).")
    var allowOrigins: [String] = []
    @OptionGroup var transport: TransportOptions
    @OptionGroup var configDir: ConfigDirOption

    func run() async throws {
        try await reportingErrors {
            let request = try makeRequest()
            if try CLIProfile.load(from: configDir.directory) == nil, let target = request.url {
                // Not configured for anything yet: find the API's authorization server from its
                // 401, register there and sign in (RFC 9728, RFC 7591, RFC 8707).
                try await APIDiscovery.signIn(for: target, directory: configDir.directory, transport: transport)
            }
            let session = try ClientSession.open(configDir, extraOrigins: allowOrigins, transport: transport)
            try checkOrigin(of: request, session: session)
            let account = try await session.currentAccount()
            let (body, response) = try await session.client.data(for: request, account: account.id)
            if include {
                var head = "HTTP/1.1 \(response.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: response.statusCode))\r\n"
                for (name, value) in response.allHeaderFields.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                    head += "\(name): \(value)\r\n"
                }
                Terminal.write(Data((head + "\r\n").utf8))
            }
            Terminal.write(body)
            if !body.isEmpty, body.last != UInt8(ascii: "\n"), Terminal.stdoutIsTTY {
                Terminal.write(Data("\n".utf8))
            }
            guard response.statusCode < 400 else {
                throw CLIError(
                    "HTTP \(response.statusCode) from \(request.url?.absoluteString ?? url)",
                    hint: "The server refused the request; see the body above.",
                    exitCode: CLIError.httpFailureExitCode)
            }
        }
    }

    private func makeRequest() throws(CLIError) -> URLRequest {
        guard let target = URL(string: url), let scheme = target.scheme?.lowercased(),
            ["http", "https"].contains(scheme), target.host != nil
        else {
            throw CLIError("'\(url)' is not an http(s) URL", hint: "Pass an absolute URL.")
        }
        var request = URLRequest(url: target)
        request.httpMethod = method?.uppercased() ?? (data == nil ? "GET" : "POST")
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw CLIError("-H '\(header)' has no colon", hint: "Use -H 'Name: value'.")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw CLIError("-H '\(header)' has no header name", hint: "Use -H 'Name: value'.")
            }
            if name.lowercased() == "authorization" {
                throw CLIError(
                    "-H Authorization would replace the access token",
                    hint: "sesame curl adds the bearer token itself; use plain curl for other credentials.")
            }
            request.addValue(value, forHTTPHeaderField: name)
        }
        if let data {
            request.httpBody = try Self.body(from: data)
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            }
        }
        return request
    }

    /// The SDK refuses to send the token elsewhere; say how to allow it in CLI terms.
    private func checkOrigin(of request: URLRequest, session: ClientSession) throws(CLIError) {
        guard let url = request.url, let origin = Origin(url) else { return }
        let allowed = ([session.profile.issuer] + (session.profile.allowedOrigins + session.profile.apis).compactMap(URL.init(string:))
            + allowOrigins.compactMap(URL.init(string:))).compactMap(Origin.init)
        guard !allowed.contains(origin) else { return }
        let shown = "\(origin.scheme)://\(url.host ?? origin.host)\(url.port.map { ":\($0)" } ?? "")"
        throw CLIError(
            "sesame will not send your access token to \(shown), which is not the issuer's origin",
            hint: "If this API should receive it, pass --allow-origin \(shown) (or remember it with `sesame login --allow-origin \(shown)`).")
    }

    /// `-d` as curl reads it: literal text, `@file`, or `@-` for stdin.
    static func body(from argument: String) throws(CLIError) -> Data {
        guard argument.hasPrefix("@") else { return Data(argument.utf8) }
        let path = String(argument.dropFirst())
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read '\(path)' for --data", hint: "Check the file name.")
        }
        return contents
    }
}
