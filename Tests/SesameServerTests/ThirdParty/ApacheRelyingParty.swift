import ChildProcess
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Apache httpd with mod_auth_openidc (Debian's `apache2` and `libapache2-mod-auth-openidc`), a
/// real third-party relying party, configured against a Sesame issuer and run in the
/// foreground in a throw-away directory: `/protected/` needs an OpenID Connect sign-in, the
/// module's info hook shows its session as JSON. Tests that need it skip where it is not
/// installed, and fail in CI (`CI=true`), which installs it.
struct ApacheRelyingParty: Sendable {
    static let httpd = "/usr/sbin/apache2"
    static let modules = "/usr/lib/apache2/modules"

    /// Why Apache cannot run here, or `nil`.
    static var unavailableReason: String? {
        let needed = [httpd, modules + "/mod_auth_openidc.so", modules + "/mod_mpm_event.so"]
        guard needed.allSatisfy(FileManager.default.fileExists(atPath:)) else {
            return "Apache with mod_auth_openidc is not installed (apt-get install apache2 libapache2-mod-auth-openidc)"
        }
        return nil
    }

    static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    let directory: URL
    let port: Int
    let child: SpawnedChild
    var base: String { "http://127.0.0.1:\(port)" }
    var redirectURI: String { base + "/protected/redirect_uri" }

    /// Writes the configuration and starts httpd in the foreground; returns once it answers.
    /// `caFile`: the CA of an https issuer, for the module's own requests (discovery, keys,
    /// token, userinfo), which it then verifies (`OIDCSSLValidateServer On`).
    static func start(
        port: Int, issuer: String, clientID: String, secret: String, scope: String, caFile: String? = nil
    ) async throws -> ApacheRelyingParty {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-apache-\(UUID().uuidString)")
        let www = directory.appendingPathComponent("www/protected")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data("protected content\n".utf8).write(to: www.appendingPathComponent("index.html"))
        try Data("signed out\n".utf8).write(to: directory.appendingPathComponent("www/signed-out.html"))
        // httpd drops to `nobody` when started as root: it must read the document root.
        chmod(directory.path, 0o755)
        for path in ["www", "www/protected"] { chmod(directory.appendingPathComponent(path).path, 0o755) }
        let passphrase = UUID().uuidString
        // The CA file where the workers (`nobody`) can read it.
        let caBundle = try caFile.map { source -> String in
            let copy = directory.appendingPathComponent("ca.pem")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: source), to: copy)
            chmod(copy.path, 0o644)
            return copy.path
        }
        let configuration = """
            ServerRoot \(modules)/..
            ServerName 127.0.0.1
            LoadModule mpm_event_module \(modules)/mod_mpm_event.so
            LoadModule authz_core_module \(modules)/mod_authz_core.so
            LoadModule authz_user_module \(modules)/mod_authz_user.so
            LoadModule authn_core_module \(modules)/mod_authn_core.so
            LoadModule mime_module \(modules)/mod_mime.so
            LoadModule dir_module \(modules)/mod_dir.so
            LoadModule auth_openidc_module \(modules)/mod_auth_openidc.so
            TypesConfig /etc/mime.types
            User nobody
            Group nogroup
            PidFile \(directory.path)/httpd.pid
            ErrorLog \(directory.path)/error.log
            LogLevel warn auth_openidc:error
            Listen 127.0.0.1:\(port)
            DocumentRoot \(directory.path)/www
            DirectoryIndex index.html
            <Directory \(directory.path)/www>
              Require all granted
            </Directory>
            OIDCProviderMetadataURL \(issuer)/.well-known/openid-configuration
            OIDCClientID \(clientID)
            OIDCClientSecret \(secret)
            OIDCRedirectURI http://127.0.0.1:\(port)/protected/redirect_uri
            OIDCCryptoPassphrase \(passphrase)
            OIDCScope "\(scope)"
            OIDCPKCEMethod S256
            OIDCInfoHook iat access_token access_token_expires id_token userinfo refresh_token session
            OIDCStateInputHeaders none
            OIDCSSLValidateServer On
            \(caBundle.map { "OIDCCABundlePath \($0)" } ?? "")
            # A whole test run shares two cores: give the server time to answer the module.
            OIDCHTTPTimeoutShort 60
            OIDCHTTPTimeoutLong 60
            <Location /protected>
              AuthType openid-connect
              Require valid-user
            </Location>

            """
        let file = directory.appendingPathComponent("httpd.conf")
        try Data(configuration.utf8).write(to: file)
        let child = try SpawnedChild.spawn(
            httpd, arguments: ["-f", file.path, "-DFOREGROUND"], environment: ["PATH": "/usr/sbin:/usr/bin:/bin"],
            input: .file("/dev/null"), output: .file("/dev/null"), error: .file("/dev/null"))
        let relyingParty = ApacheRelyingParty(directory: directory, port: port, child: child)
        for _ in 0..<100 {
            if (try? await URLSession.shared.data(from: URL(string: relyingParty.base + "/signed-out.html")!)) != nil {
                return relyingParty
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        relyingParty.stop()
        throw Failure("httpd did not answer on port \(port): \(relyingParty.errorLog)")
    }

    var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    func stop() {
        child.send(SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A free loopback port (bound and released; httpd binds it a moment later).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
