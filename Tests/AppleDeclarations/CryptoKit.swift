// Declarations of the CryptoKit Secure Enclave API that Sesame's DPoP adapter calls
// (SecureEnclaveDPoPKey), written from Apple's documentation as Swift sees it. Not an
// implementation: it exists so the adapter type-checks on Linux (AppleAdapterCompileTests). The
// adapter never names the public-key and signature types, which on Apple are CryptoKit's
// `P256.Signing.PublicKey` and `P256.Signing.ECDSASignature`; here they are stand-ins with the
// one member it reads.
import Foundation

/// `SecureEnclave` (CryptoKit).
public enum SecureEnclave {
    /// Whether the device has a Secure Enclave.
    public static var isAvailable: Bool { false }

    /// `SecureEnclave.P256`.
    public enum P256 {
        /// `SecureEnclave.P256.Signing`.
        public enum Signing {
            /// Stand-in for `P256.Signing.PublicKey`.
            public struct PublicKeyStandIn: Sendable {
                public var rawRepresentation: Data { Data() }
            }

            /// Stand-in for `P256.Signing.ECDSASignature`.
            public struct SignatureStandIn: Sendable {
                public var rawRepresentation: Data { Data() }
            }

            /// `SecureEnclave.P256.Signing.PrivateKey`: `Sendable` as in CryptoKit.
            public struct PrivateKey: Sendable {
                /// `init(compactRepresentable:accessControl:authenticationContext:) throws`, all defaulted.
                public init(compactRepresentable: Bool = true) throws {}
                /// `init(dataRepresentation:authenticationContext:) throws`.
                public init(dataRepresentation: Data) throws {}
                public var dataRepresentation: Data { Data() }
                public var publicKey: PublicKeyStandIn { PublicKeyStandIn() }
                public func signature<D: DataProtocol>(for data: D) throws -> SignatureStandIn { SignatureStandIn() }
            }
        }
    }
}
