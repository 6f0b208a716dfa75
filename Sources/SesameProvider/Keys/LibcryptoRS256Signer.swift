import Crypto
import Foundation
import JWTKit
import SesameProtocol

#if canImport(CLibcrypto)
    import CLibcrypto
#endif

/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3; RFC 8017 §8.2.1) signed by the
/// system's libcrypto (OpenSSL 3) instead of swift-crypto's BoringSSL, where libcrypto is
/// there (Linux); verification stays with swift-crypto (`wrapped`).
///
/// Why: on CPUs with AVX-512 IFMA (Intel since Ice Lake, AMD since Zen 4) OpenSSL 3 computes the
/// RSA private-key operation with 52-bit multiply-add instructions that BoringSSL does not use:
/// a 2,048-bit signature takes 246 µs instead of 575 µs on this project's benchmark host, and
/// RSA signing is most of the CPU of a refresh, a sign-in and a `client_credentials` grant
/// (docs/benchmarks.md, "RS256 signed by libcrypto"). Without IFMA the two sign at the same
/// speed. PKCS#1 v1.5 signatures are deterministic, so both libraries produce the same octets
/// for the same key and input: ``init(_:key:)`` signs a probe with each and keeps libcrypto only
/// if the two signatures are identical.
///
/// The `EVP_PKEY` is immutable after the import and shared by concurrent signers, as OpenSSL 3
/// allows for keys (openssl-threads(7)). A signing context is used by one signature at a time
/// and kept for the next (``idleContexts``): setting one up (`EVP_PKEY_CTX_new`,
/// `EVP_PKEY_sign_init`, which fetches the provider's RSA signature through OpenSSL's locked
/// method store, and the padding and digest parameters) cost 3–5 µs a signature on two threads
/// in C, and ~14 µs inside the server under the refresh load (perf: 3.2% of its CPU), where
/// `openssl speed`, the bound the refresh is measured against, sets its context up once.
package final class LibcryptoRS256Signer: JWTAlgorithm, @unchecked Sendable {
    // `@unchecked`: `key` is only read after `init`, through libcrypto's thread-safe calls.
    package let name = "RS256"
    /// swift-crypto's RS256 for the same key: verification, and the probe's reference.
    private let wrapped: any JWTAlgorithm
    #if canImport(CLibcrypto)
        private let key: OpaquePointer
        /// Signing contexts set up for this key (PKCS#1 v1.5, SHA-256) and not in use; a signature
        /// takes one (or sets one up when none is idle) and gives it back when it succeeded.
        private let idle = LockedState<[OpaquePointer]>([])
    #endif

    /// Idle signing contexts kept at most; more concurrent signatures than this set up their own.
    static let idleLimit = 16

    /// Why libcrypto cannot sign for a key; the key ring then signs with swift-crypto.
    package struct Unavailable: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "libcrypto cannot sign RS256 with this key: \(reason)" }
    }

    /// Imports `key` (its PKCS#1 `RSAPrivateKey` DER) into libcrypto, then checks that
    /// libcrypto's signature of a probe equals `wrapped`'s, swift-crypto's RS256 of the same key.
    package init(_ wrapped: any JWTAlgorithm, key: JWTKit.Insecure.RSA.PrivateKey) throws(Unavailable) {
        guard wrapped.name == "RS256" else { throw Unavailable(reason: "the algorithm is \(wrapped.name), not RS256") }
        self.wrapped = wrapped
        #if canImport(CLibcrypto)
            var der = key.derRepresentation
            defer { der.resetBytes(in: 0..<der.count) }
            let imported = der.withUnsafeBytes { raw -> OpaquePointer? in
                var cursor = raw.bindMemory(to: UInt8.self).baseAddress
                return d2i_PrivateKey(EVP_PKEY_RSA, nil, &cursor, raw.count)
            }
            guard let imported else { throw Unavailable(reason: "the key does not import (\(Self.drainErrors()))") }
            self.key = imported
            let probe = Array("Sesame RS256 probe: libcrypto must sign as swift-crypto does".utf8)
            let ours: [UInt8]
            let reference: [UInt8]
            do {
                ours = try sign(probe)
                reference = try wrapped.sign(probe)
            } catch {
                throw Unavailable(reason: "the probe signature failed (\(error))")
            }
            guard ours == reference else {
                throw Unavailable(reason: "libcrypto's probe signature differs from swift-crypto's")
            }
        #else
            throw Unavailable(reason: "libcrypto is not linked on this platform")
        #endif
    }

    #if canImport(CLibcrypto)
        deinit {
            idle.withLock { contexts in contexts.forEach { EVP_PKEY_CTX_free($0) } }
            EVP_PKEY_free(key)
        }
    #endif

    /// Signing contexts kept for the next signatures (for tests).
    var idleContexts: Int {
        #if canImport(CLibcrypto)
            idle.withLock { $0.count }
        #else
            0
        #endif
    }

    /// The JWS signature of `plaintext` (the signing input): SHA-256 by swift-crypto, then the
    /// RSA private-key operation over its `DigestInfo` by libcrypto (`EVP_PKEY_sign`).
    package func sign(_ plaintext: some DataProtocol) throws -> [UInt8] {
        #if canImport(CLibcrypto)
            let digest = SHA256.hash(data: plaintext)
            let context = try idle.withLock { $0.popLast() } ?? newContext()
            var length = Int(EVP_PKEY_get_size(key))
            var signature = [UInt8](repeating: 0, count: length)
            let signed = digest.withUnsafeBytes { digest in
                EVP_PKEY_sign(
                    context, &signature, &length, digest.bindMemory(to: UInt8.self).baseAddress, digest.count)
            }
            guard signed == 1, length <= signature.count else {
                // A context that failed is not kept.
                EVP_PKEY_CTX_free(context)
                throw Self.failure("EVP_PKEY_sign")
            }
            let kept = idle.withLock { contexts in
                guard contexts.count < Self.idleLimit else { return false }
                contexts.append(context)
                return true
            }
            if !kept { EVP_PKEY_CTX_free(context) }
            signature.removeLast(signature.count - length)
            return signature
        #else
            return try wrapped.sign(plaintext)
        #endif
    }

    #if canImport(CLibcrypto)
        /// A signing context for `key`: PKCS#1 v1.5 padding, SHA-256 (RFC 7518 §3.3).
        private func newContext() throws(Unavailable) -> OpaquePointer {
            guard let context = EVP_PKEY_CTX_new(key, nil) else { throw Self.failure("EVP_PKEY_CTX_new") }
            guard EVP_PKEY_sign_init(context) == 1,
                EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
                EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
            else {
                EVP_PKEY_CTX_free(context)
                throw Self.failure("setting up PKCS#1 v1.5 with SHA-256")
            }
            return context
        }
    #endif

    package func verify(_ signature: some DataProtocol, signs plaintext: some DataProtocol) throws -> Bool {
        try wrapped.verify(signature, signs: plaintext)
    }

    #if canImport(CLibcrypto)
        /// A signing failure with libcrypto's queued errors, which are cleared so that they do not
        /// surface on this thread's next call.
        private static func failure(_ step: String) -> Unavailable {
            Unavailable(reason: "\(step) failed (\(drainErrors()))")
        }

        private static func drainErrors() -> String {
            var messages: [String] = []
            while case let code = ERR_get_error(), code != 0 {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return messages.isEmpty ? "no error queued" : messages.joined(separator: "; ")
        }
    #endif
}
