import Foundation
import SesameProtocol
import Testing

@testable import Sesame

/// Issue #30: the SDK's error is a struct with a stable code and a category; every failure the
/// SDK can raise maps to both, and the typed details are readable without the internal record.
@Suite("SesameError: codes, categories and details")
struct SesameErrorTests {
    static let apiError = APIError(error: "invalid_request", errorDescription: "bad email")

    static let samples: [(SesameError, SesameError.Code, SesameError.Category)] = [
        (.cancelled, .cancelled, .cancelled),
        (.ssoUnavailable("ended"), .ssoUnavailable, .signInRequired),
        (.requestFailed(apiError, status: 400), .requestFailed, .invalidInput),
        (.authenticationFailed(apiError, status: 401), .authenticationFailed, .signInRequired),
        (.technical(.network("offline")), .network, .unavailable),
        (.technical(.server(status: 503, nil)), .serverUnavailable, .unavailable),
        (.technical(.malformedResponse("not JSON")), .malformedResponse, .misconfigured),
        (.technical(.storage("disk full")), .storage, .misconfigured),
        (.technical(.platform("keychain")), .platform, .misconfigured),
        (.noSession, .noSession, .signInRequired),
        (.invalidIDToken(.nonce, detail: "x"), .invalidIDToken, .misconfigured),
        (.protocolViolation("state"), .protocolViolation, .misconfigured),
        (.invalidConfiguration("client id"), .invalidConfiguration, .misconfigured),
        (.stepUpRequired(apiError), .stepUpRequired, .stepUpRequired),
        (.challengeTooHard(difficulty: 30, ceiling: 24), .challengeTooHard, .unavailable),
        (.pinTooShort(minimum: 5), .pinTooShort, .invalidInput),
        (.pinNotNumeric, .pinNotNumeric, .invalidInput),
        (.pinIsSequence, .pinIsSequence, .invalidInput),
        (.pinTooManySimilarDigits(maximum: 2), .pinTooManySimilarDigits, .invalidInput),
        (.pinBlacklisted, .pinBlacklisted, .invalidInput),
        (.wrongPIN(remainingAttempts: 2), .wrongPIN, .invalidInput),
        (.pinDeregistered, .pinDeregistered, .signInRequired),
        (.noPINProfile, .noPINProfile, .unavailable),
        (.biometricsUnavailable, .biometricsUnavailable, .unavailable),
        (.passkeyUnavailable(.cancelled), .passkeyUnavailable, .unavailable),
    ]

    @Test("every failure has its code and category, and a message")
    func mapping() {
        for (error, code, category) in Self.samples {
            #expect(error.code == code, "\(error)")
            #expect(error.category == category, "\(error)")
            #expect(!error.description.isEmpty)
        }
        #expect(Set(Self.samples.map(\.1.rawValue)).count == Self.samples.count, "codes are distinct")
    }

    @Test("typed details: status, server error, ID-token rule, remaining PIN attempts, passkey cause")
    func details() {
        let refused = SesameError.requestFailed(Self.apiError, status: 400)
        #expect(refused.httpStatus == 400 && refused.apiError?.error == "invalid_request")
        #expect(SesameError.technical(.server(status: 502, Self.apiError)).apiError?.error == "invalid_request")
        #expect(SesameError.invalidIDToken(.audience, detail: "x").idTokenRule == .audience)
        #expect(SesameError.wrongPIN(remainingAttempts: 2).remainingPINAttempts == 2)
        #expect(SesameError.cancelled.remainingPINAttempts == nil && SesameError.cancelled.httpStatus == nil)
        #expect(SesameError.passkeyUnavailable(.cancelled).passkeyFailure == .cancelled)
        #expect(SesameError.technical(.network("x")).technicalFailure != nil)
    }

    @Test("equality is the same code and details; an app's switch over the code needs a default")
    func equality() {
        #expect(SesameError.wrongPIN(remainingAttempts: 2) == .wrongPIN(remainingAttempts: 2))
        #expect(SesameError.wrongPIN(remainingAttempts: 2) != .wrongPIN(remainingAttempts: 1))
        #expect(SesameError.Code(rawValue: "from_a_later_release") != .cancelled)
        let code = SesameError.Code(rawValue: "from_a_later_release")
        let handled: Bool
        switch code {
        case .cancelled, .wrongPIN: handled = true
        default: handled = false
        }
        #expect(!handled)
    }
}
