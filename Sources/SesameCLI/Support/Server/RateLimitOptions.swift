import ArgumentParser
import Foundation
import SesameServer

/// `sesame serve`'s request rate limits (``RateLimitPolicy``): on by default with generous
/// limits; each can be changed or turned off.
struct RateLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Change one limit: CLASS[-client]=REQUESTS/SECONDS, or CLASS[-client]=off (repeatable).",
            discussion: "Classes: token, sign_in, account_creation, mail, discovery; without -client the limit is per client address, with it per client id (token, sign_in). Defaults per address: token=600/60, sign_in=120/60, account_creation=20/3600, mail=60/3600, discovery=1200/60; per client: token-client=6000/60, sign_in-client=3000/60."))
    var limits: [String] = []

    @Flag(name: .customLong("no-rate-limits"), help: "Turn every request rate limit off (e.g. behind a gateway that limits).")
    var off = false

    func policy() throws -> RateLimitPolicy {
        if off { return .off }
        var policy = RateLimitPolicy()
        for text in limits {
            let hint = "Write e.g. --rate-limit token=600/60, --rate-limit token-client=6000/60 or --rate-limit mail=off."
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw CLIError("--rate-limit '\(text)' is not CLASS=REQUESTS/SECONDS", hint: hint) }
            var name = parts[0]
            let perClient = name.hasSuffix("-client")
            if perClient { name.removeLast("-client".count) }
            guard let endpoint = RateLimitPolicy.EndpointClass(rawValue: name) else {
                throw CLIError(
                    "--rate-limit: unknown class '\(name)'",
                    hint: "Use one of \(RateLimitPolicy.EndpointClass.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            var limit: RateLimitPolicy.Limit?
            if parts[1] != "off" {
                let numbers = parts[1].split(separator: "/").map { Int($0) }
                // Bounded: the window goes out as whole seconds in RateLimit headers, and
                // Int(Double(Int.max)) traps.
                guard numbers.count == 2, let requests = numbers[0], let seconds = numbers[1],
                    (1...1_000_000_000).contains(requests), (1...31_536_000).contains(seconds)
                else {
                    throw CLIError(
                        "--rate-limit '\(text)': the limit must be REQUESTS/SECONDS, requests 1 to 1000000000, seconds 1 to 31536000 (a year)",
                        hint: hint)
                }
                limit = RateLimitPolicy.Limit(requests, per: TimeInterval(seconds))
            }
            if perClient { policy.perClient[endpoint] = limit } else { policy.perAddress[endpoint] = limit }
        }
        return policy
    }
}
