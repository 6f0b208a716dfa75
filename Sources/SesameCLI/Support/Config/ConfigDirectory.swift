import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the client commands (`login`, `whoami`, `token`, ...) keep their state.
///
/// Resolution order (first match wins):
/// 1. `--config-dir PATH`
/// 2. `$SESAME_CONFIG_DIR`
/// 3. `$XDG_CONFIG_HOME/sesame` (XDG Base Directory Specification)
/// 4. `~/Library/Application Support/sesame` on macOS, `~/.config/sesame` elsewhere
///
/// Layout: `credentials/` (the SDK's `EncryptedFileCredentialStore`), `credentials.key` (its
/// AES-256 key, 0600) and `config.json` (the ``CLIProfile`` remembered by `sesame login`).
/// Single sign-on across apps (docs/native-sso.md): `apps/<client-id>/` holds a sibling app's
/// own directory of the same layout (`--as`), and `sso-group/` with `sso-group.key` the group
/// the apps share (device secrets, ID tokens and account labels only).
struct ConfigDirectory: Sendable {
    let url: URL
    /// The top directory; a sibling app's directory lives under it.
    let root: URL

    init(url: URL, root: URL? = nil) {
        self.url = url
        self.root = root ?? url
    }

    /// The directory of the sibling app `clientID`.
    func app(_ clientID: String) -> ConfigDirectory {
        ConfigDirectory(url: root.appendingPathComponent("apps").appendingPathComponent(clientID), root: root)
    }

    /// Whether this is a sibling app's directory.
    var isApp: Bool { url.standardizedFileURL != root.standardizedFileURL }

    /// The shared single sign-on group of the apps of this directory.
    var ssoGroupURL: URL { root.appendingPathComponent("sso-group") }
    var ssoGroupKeyURL: URL { root.appendingPathComponent("sso-group.key") }

    /// Resolves the directory from the option and the environment (see the type's documentation).
    static func resolve(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ConfigDirectory {
        if let option, !option.isEmpty {
            return ConfigDirectory(url: URL(fileURLWithPath: expandTilde(option, environment)))
        }
        if let explicit = environment["SESAME_CONFIG_DIR"], !explicit.isEmpty {
            return ConfigDirectory(url: URL(fileURLWithPath: expandTilde(explicit, environment)))
        }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return ConfigDirectory(url: URL(fileURLWithPath: xdg).appendingPathComponent("sesame"))
        }
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
        #if os(macOS)
            return ConfigDirectory(
                url: home.appendingPathComponent("Library/Application Support/sesame"))
        #else
            return ConfigDirectory(url: home.appendingPathComponent(".config/sesame"))
        #endif
    }

    private static func expandTilde(_ path: String, _ environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }

    /// The SDK's encrypted credential store directory.
    var credentialsURL: URL { url.appendingPathComponent("credentials") }
    /// The credential store's key file (created 0600 by the store).
    var credentialsKeyURL: URL { url.appendingPathComponent("credentials.key") }
    /// The remembered `login` settings.
    var profileURL: URL { url.appendingPathComponent("config.json") }

    /// Creates the directory with mode 0700 when missing (an existing one is left as it is).
    func prepare() throws(CLIError) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CLIError(
                    "\(url.path) exists but is not a directory",
                    hint: "Pass another --config-dir or set SESAME_CONFIG_DIR.")
            }
            return
        }
        do {
            if isApp { try ConfigDirectory(url: root).prepare() }
            try fileManager.createDirectory(
                at: url, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(
                "cannot create the config directory \(url.path) (\(error.localizedDescription))",
                hint: "Check its parent's permissions, or pass --config-dir.")
        }
    }
}
