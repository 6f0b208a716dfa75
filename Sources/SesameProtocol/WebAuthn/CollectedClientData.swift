import Foundation

/// §5.8.1 `CollectedClientData`: the JSON the client hashes into what the authenticator signs.
/// Decoded after UTF-8 decoding with a leading byte order mark stripped (§7.1 step 5, §7.2
/// step 8). Unknown members are ignored (§5.8.1.2: the format is extensible).
public struct CollectedClientData: Codable, Sendable, Equatable {
    /// §5.8.1 `type`: `webauthn.create` for a registration, `webauthn.get` for an authentication.
    public var type: String
    /// base64url of the challenge the relying party sent.
    public var challenge: String
    /// §5.8.1 `origin`: the origin of the caller, checked against the relying party's origins.
    public var origin: String
    /// §5.8.1 `crossOrigin`: `true` when called from a cross-origin iframe; absent means `false`.
    public var crossOrigin: Bool?
    /// §5.8.1 `topOrigin`: the top-level origin, present only when `crossOrigin` is `true`.
    public var topOrigin: String?

    /// Client data from its members; `serialized` writes it as a browser does.
    public init(type: String, challenge: String, origin: String, crossOrigin: Bool? = nil, topOrigin: String? = nil) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
    }

    /// Parses `clientDataJSON` bytes (``ClientDataReader``); `nil` when they are not UTF-8 JSON
    /// of this shape.
    public static func parse(_ bytes: Data) -> CollectedClientData? {
        var data = bytes
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        return ClientDataReader.read(data)
    }

    /// The serialization of §5.8.1.1 (members in order: type, challenge, origin, crossOrigin),
    /// as a browser writes it; what the software authenticator hands over.
    public var serialized: Data {
        func quoted(_ text: String) -> String {
            let data = try? JSONEncoder().encode(text)
            return data.flatMap { String(data: $0, encoding: .utf8) } ?? "\"\""
        }
        var text = "{\"type\":\(quoted(type)),\"challenge\":\(quoted(challenge)),\"origin\":\(quoted(origin))"
        text += ",\"crossOrigin\":\(crossOrigin == true ? "true" : "false")"
        if let topOrigin { text += ",\"topOrigin\":\(quoted(topOrigin))" }
        return Data((text + "}").utf8)
    }
}
