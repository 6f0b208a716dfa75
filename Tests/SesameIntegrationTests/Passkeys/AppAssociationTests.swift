import Crypto
import Foundation
import Sesame
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// The domain association files native apps need before the platform lets them use this
/// server's passkeys (docs/passkeys.md "Apps"), served from the configuration, and the Android
/// apps' origins accepted by the ceremonies.
@Suite("Passkeys: apps associated with the domain")
struct AppAssociationTests {
    static let appleID = "ABCDE12345.com.example.app"
    static let fingerprint = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
    static let otherFingerprint = Data(repeating: 0xAB, count: 32)

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.passkeys.apps = AppAssociation(
            appleAppIDs: [appleID, "ZYXWV98765.com.example.other"],
            androidApps: [.init(packageName: "com.example.app", certificateFingerprints: [fingerprint, otherFingerprint])])
    }

    @Test("apple-app-site-association lists the App IDs under webcredentials; assetlinks.json the package and fingerprints with get_login_creds")
    func files() async throws {
        try await withServer(configure: Self.configure) { server in
            let http = HTTPTestClient(baseURL: server.running.issuer)
            let apple = try await http.get("/.well-known/apple-app-site-association")
            #expect(apple.status == 200)
            #expect(apple.header("Content-Type") == "application/json")
            #expect(apple.header("Cache-Control") == "public, max-age=3600")
            let association = try #require(try JSONSerialization.jsonObject(with: apple.body) as? [String: [String: [String]]])
            #expect(association == ["webcredentials": ["apps": [Self.appleID, "ZYXWV98765.com.example.other"]]])

            let android = try await http.get("/.well-known/assetlinks.json")
            #expect(android.status == 200)
            let statements = try #require(try JSONSerialization.jsonObject(with: android.body) as? [[String: Any]])
            #expect(statements.count == 1)
            let statement = try #require(statements.first)
            #expect(statement["relation"] as? [String] == ["delegate_permission/common.get_login_creds"])
            let target = try #require(statement["target"] as? [String: Any])
            #expect(target["namespace"] as? String == "android_app")
            #expect(target["package_name"] as? String == "com.example.app")
            let fingerprints = try #require(target["sha256_cert_fingerprints"] as? [String])
            #expect(fingerprints.count == 2)
            #expect(fingerprints.first?.hasPrefix("00:07:0E:15:1C:") == true && fingerprints.first?.count == 95)
            #expect(fingerprints.last == Array(repeating: "AB", count: 32).joined(separator: ":"))
        }
    }

    @Test("universal links are listed under applinks, one detail per App ID with its paths as components, beside webcredentials")
    func appLinks() async throws {
        try await withServer(configure: { configuration in
            var apps = AppAssociation(appleAppIDs: [Self.appleID])
            apps.addAppLink(appID: Self.appleID, path: "/callback/ios")
            apps.addAppLink(appID: Self.appleID, path: "/open/*")
            apps.addAppLink(appID: Self.appleID, path: "/callback/ios")
            apps.addAppLink(appID: "ZYXWV98765.com.example.other", path: "/other")
            configuration.passkeys.apps = apps
        }) { server in
            let http = HTTPTestClient(baseURL: server.running.issuer)
            let apple = try await http.get("/.well-known/apple-app-site-association")
            #expect(apple.status == 200)
            #expect(apple.header("Content-Type") == "application/json")
            let document = try #require(try JSONSerialization.jsonObject(with: apple.body) as? [String: Any])
            #expect((document["webcredentials"] as? [String: [String]]) == ["apps": [Self.appleID]])
            let details = try #require((document["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
            #expect(details.count == 2)
            #expect(details.first?["appIDs"] as? [String] == [Self.appleID])
            #expect(details.first?["components"] as? [[String: String]] == [["/": "/callback/ios"], ["/": "/open/*"]])
            #expect(details.last?["appIDs"] as? [String] == ["ZYXWV98765.com.example.other"])
            #expect(details.last?["components"] as? [[String: String]] == [["/": "/other"]])
        }
        // Universal links alone publish the file, without webcredentials.
        try await withServer(configure: { configuration in
            configuration.passkeys.apps.addAppLink(appID: Self.appleID, path: "/callback")
        }) { server in
            let apple = try await HTTPTestClient(baseURL: server.running.issuer).get("/.well-known/apple-app-site-association")
            #expect(String(decoding: apple.body, as: UTF8.self)
                == #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/callback"}]}]}}"#)
        }
    }

    @Test("a universal link is TEAMID.bundle.id:/path, the path visible ASCII without a fragment", arguments: [
        ("ABCDE12345.com.example.app:/callback/ios", true), ("ABCDE12345.com.example.app:/open/*", true),
        ("ABCDE12345.com.example.app:/a?b", true), ("ABCDE12345.com.example.app", false),
        ("ABCDE12345.com.example.app:callback", false), ("com.example.app:/callback", false),
        ("ABCDE12345.com.example.app:/call back", false), ("ABCDE12345.com.example.app:/cb#frag", false),
        ("ABCDE12345.com.example.app:/caf\u{E9}", false), ("ABCDE12345.com.example.app:/\u{0}", false),
    ])
    func appLinkSyntax(_ text: String, _ valid: Bool) {
        #expect(((try? AppAssociation.appLink(text)) != nil) == valid, "\(text)")
    }

    @Test("a universal link path of 1,025 characters is refused; 1,024 is accepted")
    func appLinkLength() throws {
        let id = "ABCDE12345.com.example.app:"
        #expect(throws: AppAssociationError.self) { try AppAssociation.appLink(id + "/" + String(repeating: "a", count: 1024)) }
        #expect(try AppAssociation.appLink(id + "/" + String(repeating: "a", count: 1023)).path.count == 1024)
    }

    @Test("without apps each file is 404 not_found, saying which option adds one")
    func unconfigured() async throws {
        try await withServer { server in
            let http = HTTPTestClient(baseURL: server.running.issuer)
            for (path, option) in [
                ("/.well-known/apple-app-site-association", "--passkey-apple-app"),
                ("/.well-known/assetlinks.json", "--passkey-android-app"),
            ] {
                let response = try await http.get(path)
                #expect(response.status == 404)
                let error = try response.json(APIError.self)
                #expect(error.errorCode == APIErrorCode.notFound.rawValue)
                #expect(error.errorDescription?.contains(option) == true, "\(path)")
            }
        }
    }

    @Test("an associated Android app's apk-key-hash origin registers a passkey; an unlisted certificate's is refused")
    func androidOrigin() async throws {
        try await withServer(configure: Self.configure) { server in
            let fixture = try await PasskeyFixture.start(server)
            let origin = "android:apk-key-hash:" + Base64URL.encode(Self.fingerprint)
            let options = try await fixture.creationOptions()
            let (_, accepted) = try await fixture.register(
                try fixture.factory.registration(challenge: options.challenge, fixture.parameters { $0.origin = origin }))
            #expect(accepted == 201)

            var stranger = fixture
            stranger.factory = AuthenticatorResponseFactory(
                key: P256.Signing.PrivateKey(), credentialID: Data(SecureRandom.bytes(32)))
            let unlisted = "android:apk-key-hash:" + Base64URL.encode(Data(repeating: 0x01, count: 32))
            let again = try await stranger.creationOptions()
            let (body, refused) = try await stranger.register(
                try stranger.factory.registration(challenge: again.challenge, stranger.parameters { $0.origin = unlisted }))
            #expect(refused == 400, "\(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test("App IDs and Android apps are read strictly, each refusal naming the rule", arguments: [
        ("ABCDE12345.com.example.app", true), ("ABCDE1234.com.example.app", false), ("ABCDE12345.", false),
        ("ABCDE12345", false), ("ABCDE-2345.com.example", false), ("ABCDE12345.com/example", false),
        ("ABCDE12345..com", false),
    ])
    func appleIDs(_ text: String, _ valid: Bool) {
        #expect(((try? AppAssociation.appleAppID(text)) != nil) == valid, "\(text)")
    }

    @Test("an Android app is package:32 colon-separated hexadecimal bytes")
    func androidApps() throws {
        let hex = Array(repeating: "0f", count: 32).joined(separator: ":")
        let app = try AppAssociation.androidApp("com.example.app:" + hex)
        #expect(app.packageName == "com.example.app" && app.certificateFingerprints == [Data(repeating: 0x0F, count: 32)])
        for bad in [
            "com.example.app", "example:" + hex, "com.1example.app:" + hex, "com.example.app:" + hex.dropLast(3),
            "com.example.app:" + hex + ":00", "com.example.app:" + hex.replacingOccurrences(of: "0f", with: "zz"),
        ] {
            #expect(throws: AppAssociationError.self, "\(bad)") { try AppAssociation.androidApp(bad) }
        }
    }
}
