// Declarations of the LocalAuthentication framework that Sesame's Apple adapters call, written
// from Apple's headers (LAContext.h) as Swift imports them. Not an implementation: it exists so
// the adapters type-check on Linux (AppleAdapterCompileTests). `LAContext` is not Sendable and
// not isolated to the main actor, as in the SDK.
import Foundation

/// Foundation's `NSErrorPointer` is `AutoreleasingUnsafeMutablePointer<NSError?>?` on Apple
/// platforms; `&error` converts to either.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// `LAPolicy` (LAPublicDefines.h).
public enum LAPolicy: Int, Sendable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
}

/// `LAContext` (LAContext.h).
open class LAContext: NSObject {
    public override init() {}
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { false }
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { false }
    open var localizedReason: String = ""
    open func invalidate() {}
}
