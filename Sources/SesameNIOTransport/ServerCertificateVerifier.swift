import Foundation
import NIOCore
import NIOSSL
import Sesame
import SesameProtocol
import SwiftASN1
import X509

/// The TLS handshake's verification of the server (NIOSSL's custom verification callback, which
/// replaces BoringSSL's): RFC 5280 path validation to a trusted root with swift-certificates
/// (validity, basic constraints, key usage, signatures) and the host name or IP address of the
/// request in the leaf (RFC 6125, `ServerIdentityPolicy`); then, for a pinned host, one key of the
/// validated chain must be pinned (``CertificatePinning/check(host:presented:at:)``). The pins
/// follow the trust evaluation and never replace it.
///
/// The outcome of a refused handshake is kept in ``refusal`` so the transport can say why.
final class ServerCertificateVerifier: Sendable {
    /// Why the handshake was refused.
    enum Refusal: Sendable {
        case untrusted(String)
        case pinMismatch(CertificatePinMismatch)
    }

    let host: String
    let isIPAddress: Bool
    let roots: CertificateStore
    let pinning: CertificatePinning
    private let outcome = LockedState<Refusal?>(nil)

    init(host: String, isIPAddress: Bool, roots: CertificateStore, pinning: CertificatePinning) {
        self.host = host
        self.isIPAddress = isIPAddress
        self.roots = roots
        self.pinning = pinning
    }

    /// The reason of the last refused handshake, if one was refused.
    var refusal: Refusal? { outcome.withLock { $0 } }

    /// NIOSSL's callback: validates off the event loop and completes the promise there.
    func verify(_ presented: [NIOSSLCertificate], promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>) {
        Task {
            let result = await validate(presented)
            promise.succeed(result)
        }
    }

    private func validate(_ presented: [NIOSSLCertificate]) async -> NIOSSLVerificationResultWithMetadata {
        let certificates = presented.compactMap { try? Certificate(derEncoded: $0.toDERBytes()) }
        guard let leaf = certificates.first, certificates.count == presented.count else {
            return refuse(.untrusted("the server presented no certificate, or one that is not DER X.509"))
        }
        let now = Date()
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: isIPAddress ? nil : host, serverIP: isIPAddress ? host : nil)
        }
        let chain: [Certificate]
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst())) {
        case .validCertificate(let validated):
            chain = Array(validated)
        case .couldNotValidate(let failures):
            let reason = failures.first.map { "\($0.policyFailureReason)" } ?? "no path to a trusted root"
            return refuse(.untrusted("the certificate of \(host) is not trusted: \(reason)"))
        }
        let pins = chain.compactMap { certificate -> PublicKeyPin? in
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate)) != nil else { return nil }
            return try? PublicKeyPin(certificateDER: serializer.serializedBytes)
        }
        if case .mismatch(let mismatch) = pinning.check(host: host, presented: pins, at: now) {
            return refuse(.pinMismatch(mismatch))
        }
        // The transport reads nothing of the connection's validated chain later.
        return .certificateVerified(VerificationMetadata(nil))
    }

    private func refuse(_ refusal: Refusal) -> NIOSSLVerificationResultWithMetadata {
        outcome.withLock { $0 = refusal }
        return .failed
    }
}
