import Foundation
import SesameProtocol

/// One sheet for every way the user can sign in (docs/passkeys.md, "the combined sheet"): the
/// platform offers saved passwords, passkeys and Sign in with Apple together and the user picks
/// one, as the customer-identity SDK's `login(withRequest:)` does. The SDK prepares what each
/// method needs (passkey options, Apple's nonce), the sheet answers with one credential, and
/// ``SesameClient/login(withRequest:sheet:)`` finishes it like the single-method calls.
public enum SignInMethod: String, Sendable, CaseIterable, Hashable {
    /// A saved or typed username and password, finished as native sign-in
    /// (``SesameClient/login(username:password:options:)``).
    case password
    /// A passkey for the server's relying party, answering a WebAuthn assertion (WebAuthn §7.2).
    case passkey
    /// Sign in with Apple, exchanged through the Apple federation provider (docs/federation.md).
    case signInWithApple = "sign_in_with_apple"
}

/// What the app asks the sheet for.
public struct CombinedSignInRequest: Sendable {
    /// The methods to offer; the SDK narrows them to the sheet's ``SignInSheet/availableMethods()``.
    public var methods: Set<SignInMethod>
    /// Narrows passkeys to this account's, and pre-fills the password.
    public var username: String?
    /// The server's name of the Apple federation provider (docs/federation.md).
    public var appleProvider: String
    /// Scopes, `acr_values` and `ui_locales` of the sign-in, whichever method the user picks.
    public var options: NativeLoginOptions

    /// A request for the sheet; by default every method, no username, Apple as `apple`.
    public init(
        methods: Set<SignInMethod> = Set(SignInMethod.allCases), username: String? = nil, appleProvider: String = "apple",
        options: NativeLoginOptions = .init()
    ) {
        self.methods = methods
        self.username = username
        self.appleProvider = appleProvider
        self.options = options
    }
}

/// What the user chose in the sheet.
public enum SignInSheetCredential: Sendable {
    /// The username and password the user chose or typed.
    case password(username: String, password: String)
    /// The passkey's assertion (WebAuthn §7.2), for the server to verify.
    case passkey(AuthenticationResponseJSON)
    /// Apple's identity token, made with the SHA-256 of the nonce the sheet was given.
    case signInWithApple(identityToken: String)
}

/// A system sheet (`PlatformSignInSheet` on Apple platforms) or its stand-in elsewhere
/// (``SoftwareSignInSheet``).
public protocol SignInSheet: Sendable {
    /// What this sheet can offer here.
    func availableMethods() async -> Set<SignInMethod>
    /// Shows the sheet. `passkeyOptions` is set when passkeys are offered; `appleNonce` (raw)
    /// when Sign in with Apple is.
    func present(
        _ request: CombinedSignInRequest, passkeyOptions: CredentialRequestOptionsJSON?, appleNonce: String?
    ) async throws(SesameError) -> SignInSheetCredential
}

/// The sheet where the platform has none (Linux, the CLI, tests): the software authenticator's
/// passkeys when it holds one for the server, else a password from `passwordPrompt`. It says
/// what it can: never Sign in with Apple.
public struct SoftwareSignInSheet: SignInSheet {
    /// Asks the user for a username and password, given the request's username to pre-fill; throwing
    /// means the user cancelled.
    public typealias PasswordPrompt = @Sendable (_ username: String?) async throws -> (username: String, password: String)

    private let passkeys: SoftwarePasskeyAuthenticator?
    private let passwordPrompt: PasswordPrompt?

    /// - Parameters:
    ///   - passkeys: the software authenticator to use, or `nil` for no passkeys.
    ///   - passwordPrompt: asks for a password, or `nil` for no passwords.
    public init(passkeys: SoftwarePasskeyAuthenticator?, passwordPrompt: PasswordPrompt?) {
        self.passkeys = passkeys
        self.passwordPrompt = passwordPrompt
    }

    /// `SignInMethod.password` with a `passwordPrompt`, `SignInMethod.passkey` when the authenticator
    /// holds at least one passkey; never Sign in with Apple.
    public func availableMethods() async -> Set<SignInMethod> {
        var methods: Set<SignInMethod> = []
        if passwordPrompt != nil { methods.insert(.password) }
        if let passkeys, let held = try? await passkeys.credentials(), !held.isEmpty { methods.insert(.passkey) }
        return methods
    }

    /// Answers with a passkey when `passkeyOptions` is set and the authenticator holds one for it,
    /// else asks `passwordPrompt`; `appleNonce` is ignored.
    ///
    /// - Throws: ``SesameError/Code-swift.struct/cancelled`` when the prompt throws,
    ///   ``SesameError/Code-swift.struct/passkeyUnavailable`` when the authenticator fails, and
    ///   ``SesameError/Code-swift.struct/invalidConfiguration`` when no requested method can be offered.
    public func present(
        _ request: CombinedSignInRequest, passkeyOptions: CredentialRequestOptionsJSON?, appleNonce: String?
    ) async throws(SesameError) -> SignInSheetCredential {
        if let passkeyOptions, let passkeys {
            do {
                return .passkey(try await passkeys.authenticate(passkeyOptions))
            } catch .noCredentials {
                // None for this server or account: the password, if offered.
            } catch {
                throw .passkeyUnavailable(error)
            }
        }
        guard request.methods.contains(.password), let passwordPrompt else {
            throw .invalidConfiguration(
                "none of the requested sign-in methods (\(request.methods.map(\.rawValue).sorted().joined(separator: ", "))) can be offered here; available: \(await availableMethods().map(\.rawValue).sorted().joined(separator: ", "))")
        }
        do {
            let answer = try await passwordPrompt(request.username)
            return .password(username: answer.username, password: answer.password)
        } catch {
            throw .cancelled
        }
    }
}
