#if canImport(Security)
import Foundation
import Security

/// Certificate pinning in `URLSession`'s server-trust challenge (Apple platforms): the system's
/// evaluation (`SecTrustEvaluateWithError`: chain to a trusted root, host name, validity,
/// revocation where the system checks it) comes first and is never replaced; then one key of
/// the verified chain must be pinned (``CertificatePinning/check(host:chain:at:)``). Thin by
/// design: the decision is ``CertificatePinning``'s, tested on Linux.
enum ServerTrustPinning {
    /// What the challenge's answer is.
    enum Outcome {
        /// The host has no active pins: the system's default handling decides alone.
        case systemDecides
        /// The system trusts the chain and one of its keys is pinned.
        case trusted
        /// The system trusts the chain, but none of its keys is pinned: cancel the connection.
        case refused(CertificatePinMismatch)
    }

    static func evaluate(_ trust: SecTrust, host: String, pinning: CertificatePinning, at now: Date) -> Outcome {
        guard pinning.entry(for: host, at: now) != nil else { return .systemDecides }
        var error: CFError?
        // A chain the system refuses is refused by the default handling, with the system's error.
        guard SecTrustEvaluateWithError(trust, &error) else { return .systemDecides }
        let certificates = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        let chain = certificates.map { SecCertificateCopyData($0) as Data }
        switch pinning.check(host: host, chain: chain, at: now) {
        case .notPinned, .matched: return .trusted
        case .mismatch(let mismatch): return .refused(mismatch)
        }
    }
}
#endif
