// Declarations of the AuthenticationServices framework that Sesame's Apple adapters call, written
// from Apple's headers (ASWebAuthenticationSession.h, ASAuthorizationController.h,
// ASAuthorization*.h, ASPasswordCredential.h) as Swift imports them. Not an implementation: it
// exists so the adapters type-check on Linux (AppleAdapterCompileTests), with the same names,
// types and actor isolation:
// - the anchor (`UIWindow`, `NSWindow`) is isolated to the main actor;
// - the delegate and context-provider protocols are not: a main-actor class conforms to them
//   with `@preconcurrency` or with `nonisolated` members, as with the SDK;
// - the sessions, controllers and requests are plain (non-Sendable) classes.
// The delegate's methods are optional in Objective-C; here they are required, which the adapters
// (implementing both) do not notice. Availability (`@available`) is written as Apple documents
// it but is not checked by a Linux compiler.
import Foundation

// MARK: - The anchor (UIKit's `UIWindow`, AppKit's `NSWindow`)

/// `UIWindow`: a view, isolated to the main actor.
@MainActor open class UIWindow {
    public init() {}
}

public typealias ASPresentationAnchor = UIWindow

// MARK: - ASWebAuthenticationSession

@available(iOS 12.0, macOS 10.15, *)
open class ASWebAuthenticationSession: NSObject {
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    @available(iOS, introduced: 12.0, deprecated: 100000, message: "Use init(url:callback:completionHandler:)")
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    @available(iOS 17.4, macOS 14.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {}

    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    open var prefersEphemeralWebBrowserSession: Bool = false
    @available(iOS 17.4, macOS 14.4, *)
    open var additionalHeaderFields: [String: String]?
    open var canStart: Bool { false }

    @discardableResult open func start() -> Bool { false }
    open func cancel() {}

    /// `ASWebAuthenticationSessionCallback`.
    @available(iOS 17.4, macOS 14.4, *)
    open class Callback: NSObject {
        open class func customScheme(_ customScheme: String) -> Self { fatalError("declaration only") }
        open class func https(host: String, path: String) -> Self { fatalError("declaration only") }
        open func matchesURL(_ url: URL) -> Bool { false }
    }
}

@available(iOS 13.0, macOS 10.15, *)
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

public struct ASWebAuthenticationSessionError: Error, Hashable {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }
    public var code: Code
}

// MARK: - ASAuthorizationController

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationRequest: NSObject {}

@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorization: NSObject {
    open var credential: any ASAuthorizationCredential { fatalError("declaration only") }

    public struct Scope: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let fullName = Scope(rawValue: "full_name")
        public static let email = Scope(rawValue: "email")
    }
}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationController: NSObject {
    public init(authorizationRequests: [ASAuthorizationRequest]) {}
    open var authorizationRequests: [ASAuthorizationRequest] { [] }
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?
    open func performRequests() {}
    @available(iOS 16.0, macOS 13.0, *)
    open func cancel() {}
}

@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

@available(iOS 13.0, macOS 10.15, *)
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

public struct ASAuthorizationError: Error, Hashable {
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        case matchedExcludedCredential = 1006
    }
    public var code: Code
}

// MARK: - Passwords and Sign in with Apple

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationPasswordRequest: ASAuthorizationRequest {}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationPasswordProvider: NSObject {
    public override init() {}
    open func createRequest() -> ASAuthorizationPasswordRequest { ASAuthorizationPasswordRequest() }
}

@available(iOS 12.0, macOS 10.15, *)
open class ASPasswordCredential: NSObject, ASAuthorizationCredential {
    public init(user: String, password: String) {}
    open var user: String { "" }
    open var password: String { "" }
}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    open var requestedScopes: [ASAuthorization.Scope]?
    open var state: String?
    open var nonce: String?
}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {
    open var user: String?
}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationAppleIDProvider: NSObject {
    public override init() {}
    open func createRequest() -> ASAuthorizationAppleIDRequest { ASAuthorizationAppleIDRequest() }
}

@available(iOS 13.0, macOS 10.15, *)
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    open var user: String { "" }
    open var state: String? { nil }
    open var identityToken: Data? { nil }
    open var authorizationCode: Data? { nil }
    open var email: String? { nil }
    open var fullName: PersonNameComponents? { nil }
}

// MARK: - Passkeys (ASAuthorizationPlatformPublicKeyCredential*.h)

@available(iOS 15.0, macOS 12.0, *)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let preferred = Self(rawValue: "preferred")
    public static let required = Self(rawValue: "required")
    public static let discouraged = Self(rawValue: "discouraged")
}

@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    public init(credentialID: Data) {}
    open var credentialID: Data = Data()
}

@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
    @available(iOS 17.4, macOS 14.4, *)
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
}

@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
}

@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    public init(relyingPartyIdentifier: String) {}
    open var relyingPartyIdentifier: String { "" }
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest() }
    open func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        ASAuthorizationPlatformPublicKeyCredentialAssertionRequest()
    }
}

@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    open var credentialID: Data { Data() }
    open var rawClientDataJSON: Data { Data() }
    open var rawAttestationObject: Data? { nil }
}

@available(iOS 15.0, macOS 12.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    open var credentialID: Data { Data() }
    open var rawClientDataJSON: Data { Data() }
    open var rawAuthenticatorData: Data { Data() }
    open var signature: Data { Data() }
    open var userID: Data { Data() }
}
