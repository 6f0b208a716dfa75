import Foundation
import SesameProtocol

/// A sign-in approved on another device: the OAuth 2.0 Device Authorization Grant (RFC 8628),
/// for a TV, a watch, a kiosk or a shell, any device without a browser or a keyboard to type a
/// password on. Made by ``SesameClient/signInOnAnotherDevice(scopes:deviceName:)``.
///
/// Iterate it to run the sign-in. Each ``State`` says what to show:
///
/// ```swift
/// for try await state in sesame.signInOnAnotherDevice(deviceName: "Living room TV") {
///     switch state {
///     case .showCode(let prompt): print("Open \(prompt.verificationURI), enter \(prompt.userCode)")
///     case .waiting: break                          // still waiting for the user
///     case .approved(let account): print("Signed in as \(account.subject)")
///     case .denied: print("The sign-in was declined.")
///     case .expired: print("The code expired; try again.")
///     }
/// }
/// ```
///
/// - The first element is always ``State/showCode(_:)``, once the provider gave the codes (§3.1-3.3).
/// - Then the SDK polls the token endpoint at the provider's interval (§3.4), 5 seconds unless it
///   says otherwise, slower after `slow_down` (§3.5), and yields ``State/waiting`` after each poll
///   that is still pending.
/// - The sequence ends after ``State/approved(_:)`` (the account is stored, made current and
///   announced with ``SesameEvent/signedIn(_:)``, exactly as after a browser sign-in),
///   ``State/denied`` or ``State/expired``.
///
/// Nothing happens between two elements unless the app asks for the next one, and no task runs
/// in the background: cancelling the task that iterates (or leaving the loop) stops the polling
/// at once; a pending wait ends with ``SesameError/Code-swift.struct/cancelled``. Iterating again
/// starts a new sign-in with new codes, e.g. after ``State/expired``.
///
/// A poll that gets no answer (a network error, a timeout, a 5xx) does not end the sign-in: it
/// is retried with exponential backoff (§3.5) until the codes expire, and yields
/// ``State/waiting``.
///
/// Errors are ``SesameError``s: ``SesameError/Code-swift.struct/invalidConfiguration`` when the
/// provider advertises no `device_authorization_endpoint` (§4) or the device name is unusable,
/// ``SesameError/Code-swift.struct/protocolViolation`` for a device authorization response that
/// breaks RFC 8628 §3.2, and the usual network, server and ID token errors.
public struct DeviceSignIn: AsyncSequence, Sendable {
    /// Where the sign-in stands (RFC 8628 §3.3-3.5).
    public enum State: Sendable, Equatable {
        /// Show the user code and the verification URI (§3.3), and where the screen allows a QR
        /// code of ``DeviceCodePrompt/qrCodeURI`` (§3.3.1), until ``DeviceCodePrompt/expiresAt``.
        case showCode(DeviceCodePrompt)
        /// A poll found the request still pending (`authorization_pending` or `slow_down`, §3.5):
        /// keep showing the code.
        case waiting
        /// The user approved: the signed-in account, stored and current. The sequence ends.
        case approved(Account)
        /// The user denied the request (`access_denied`, §3.5). The sequence ends.
        case denied
        /// The codes expired before the user approved (`expired_token`, §3.5, or the
        /// `expires_in` of §3.2 passed). The sequence ends; iterate again for new codes.
        case expired
    }

    /// Waits the given seconds; throws when the task is cancelled.
    typealias Sleep = @Sendable (TimeInterval) async throws -> Void

    let client: SesameClient
    let scopes: [String]?
    let deviceName: String?
    let sleep: Sleep

    /// `Task.sleep` (a `Duration` needs iOS 16); throws `CancellationError` when the task is
    /// cancelled. The wait is at most an hour (``DevicePollSchedule``), far from overflowing.
    static let taskSleep: Sleep = { seconds in
        try await Task.sleep(nanoseconds: UInt64(Swift.max(0, seconds) * 1_000_000_000))
    }

    /// A new sign-in: its own device authorization request and its own polling.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }

    /// The errors of the sign-in (where the platform knows typed iteration, `for try await`
    /// gives a ``SesameError``).
    public typealias Failure = SesameError

    /// Runs one device sign-in, one ``State`` per call of ``next()``.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        /// The errors of ``next()``.
        public typealias Failure = SesameError
        private let sequence: DeviceSignIn
        private var phase = Phase.notStarted

        private enum Phase: Sendable {
            case notStarted
            case polling(Flow)
            case finished
        }

        init(sequence: DeviceSignIn) { self.sequence = sequence }

        /// The next state: ``State/showCode(_:)`` first, then after each poll ``State/waiting``
        /// or the final ``State/approved(_:)``, ``State/denied`` or ``State/expired``; `nil`
        /// after the final state or an error. Throws ``SesameError``.
        public mutating func next() async throws(SesameError) -> State? {
            do {
                return try await step()
            } catch {
                phase = .finished
                sequence.client.analytics.failed(error, method: Flow.analyticsMethod)
                throw error
            }
        }

        private mutating func step() async throws(SesameError) -> State? {
            let client = sequence.client
            switch phase {
            case .finished:
                return nil
            case .notStarted:
                guard !Task.isCancelled else { throw .cancelled }
                client.analytics.record(.signInStarted, ["method": Flow.analyticsMethod])
                let flow = try await client.startDeviceSignIn(scopes: sequence.scopes, deviceName: sequence.deviceName)
                phase = .polling(flow)
                return .showCode(flow.pending.prompt)
            case .polling(var flow):
                // §3.5: wait at least the interval before each poll; stop at expiry (§3.2).
                guard let wait = flow.pending.schedule.wait(at: flow.clock.now()) else { return finish(.expired) }
                do {
                    try await sequence.sleep(wait)
                } catch {
                    throw .cancelled
                }
                guard !Task.isCancelled else { throw .cancelled }
                guard !flow.pending.schedule.hasExpired(at: flow.clock.now()) else { return finish(.expired) }
                let outcome: DevicePollOutcome
                do {
                    outcome = try await client.pollDeviceSignIn(flow)
                } catch where error.code == .network || error.code == .serverUnavailable {
                    // §3.5: a poll lost in transit is retried with exponential backoff.
                    flow.pending.schedule.backOff()
                    phase = .polling(flow)
                    return .waiting
                }
                if flow.pending.schedule.backoff != nil {
                    flow.pending.schedule.answered()
                    phase = .polling(flow)
                }
                switch outcome {
                case .pending:
                    return .waiting
                case .slowDown:
                    flow.pending.schedule.slowDown()
                    phase = .polling(flow)
                    return .waiting
                case .denied:
                    return finish(.denied)
                case .expired:
                    return finish(.expired)
                case .tokens(let tokens):
                    let account = try await client.finishDeviceSignIn(tokens, flow: flow)
                    return finish(.approved(account))
                }
            }
        }

        private mutating func finish(_ state: State) -> State {
            phase = .finished
            let analytics = sequence.client.analytics
            switch state {
            case .approved: analytics.record(.signInSucceeded, ["method": Flow.analyticsMethod])
            case .denied:
                analytics.record(.signInFailed, ["method": Flow.analyticsMethod, "error": APIErrorCode.deviceAccessDenied.error])
            case .expired:
                analytics.record(.signInFailed, ["method": Flow.analyticsMethod, "error": APIErrorCode.expiredToken.error])
            case .showCode, .waiting: break
            }
            return state
        }
    }

    /// One started sign-in: what the polls need.
    struct Flow: Sendable {
        /// The `method` of its ``AnalyticsEvent``s.
        static let analyticsMethod = "device"

        let metadata: ProviderMetadata
        /// The key every poll's proof is signed with, so the tokens are bound to it (RFC 9449 §5).
        let dpopKey: (any DPoPKey)?
        let clock: any SesameClock
        var pending: PendingDeviceAuthorization
    }
}
