import ChildProcess
import Foundation

/// A command-line tool run to its end (openssl, curl, python3), its output read from files: no
/// pipe a test runner could wait on.
public struct ToolRun: Sendable {
    public let status: Int32
    public let output: String
    public let error: String

    /// Whether `tool` is on this machine (`/usr/bin/<tool>`).
    public static func available(_ tool: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool)
    }

    /// Runs `tool` with `arguments` (absolute paths); its output is kept in `directory` meanwhile.
    public static func run(_ tool: String, _ arguments: [String], in directory: URL) async throws -> ToolRun {
        let tag = UUID().uuidString
        let out = directory.appendingPathComponent("out-\(tag)").path
        let err = directory.appendingPathComponent("err-\(tag)").path
        // The child appends to them: they must exist.
        for path in [out, err] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let child = try SpawnedChild.spawn(
            "/usr/bin/env", arguments: [tool] + arguments, environment: ProcessInfo.processInfo.environment,
            input: .file("/dev/null"), output: .file(out), error: .file(err))
        var ended = child.termination().makeAsyncIterator()
        let status = await ended.next()?.status ?? -1
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        return ToolRun(
            status: status, output: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}

/// A throw-away certificate authority and server certificates for 127.0.0.1 and localhost, made
/// with `openssl` in a temporary directory (P-256 keys, one day).
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    public var keyFile: String { directory.appendingPathComponent("server.key").path }

    public static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        try await certificates.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "1", "-subj", "/CN=Sesame Test CA",
        ])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
            to: directory.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        try await certificates.issue(commonName: "first")
        return certificates
    }

    /// A new key and certificate named `commonName` in `server.key` and `server.pem` (replacing
    /// the files, as a renewal does).
    public func issue(commonName: String) async throws {
        try await openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "server.key", "-out", "server.csr",
            "-subj", "/CN=\(commonName)",
        ])
        try await openssl([
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
            "-days", "1", "-extfile", "san.ext",
        ])
    }

    /// A client certificate (RFC 8705 §2.1) in `<name>.pem` and `<name>.key`, with the subject
    /// `subject` (OpenSSL's `/CN=…/O=…` form) and, if given, `san` (`DNS:…,URI:…`), issued by
    /// the CA, or self-signed (§2.2) when `selfSigned`. Returns the certificate's DER.
    @discardableResult
    public func issueClient(_ name: String, subject: String, san: String? = nil, selfSigned: Bool = false) async throws -> Data {
        let extensions = "\(name).ext"
        try "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n\(san.map { "subjectAltName=\($0)\n" } ?? "")".write(
            to: directory.appendingPathComponent(extensions), atomically: true, encoding: .utf8)
        if selfSigned {
            try await openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key",
                "-out", "\(name).pem", "-days", "1", "-subj", subject, "-addext", "extendedKeyUsage=clientAuth",
            ] + (san.map { ["-addext", "subjectAltName=\($0)"] } ?? []))
        } else {
            try await openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key",
                "-out", "\(name).csr", "-subj", subject,
            ])
            try await openssl([
                "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "\(name).pem", "-days", "1", "-extfile", extensions,
            ])
        }
        return try der(path("\(name).pem"))
    }

    /// The DER of the one certificate in the PEM file at `pemFile`.
    public func der(_ pemFile: String) throws -> Data {
        let pem = try String(contentsOfFile: pemFile, encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body) else { throw ToolFailure("\(pemFile) is not a PEM certificate") }
        return der
    }

    /// The path of the directory's file `name`.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// `openssl` with the directory's files (`ca.key`, `server.pem`, …) named by full path.
    private func openssl(_ arguments: [String]) async throws {
        let suffixes = [".key", ".pem", ".ext", ".csr"]
        let absolute = arguments.map { argument in
            !argument.contains("/") && suffixes.contains(where: argument.hasSuffix)
                ? directory.appendingPathComponent(argument).path : argument
        }
        let run = try await ToolRun.run("openssl", absolute, in: directory)
        guard run.status == 0 else { throw ToolFailure("openssl \(arguments.prefix(2).joined(separator: " ")): \(run.error)") }
    }

    public func remove() { try? FileManager.default.removeItem(at: directory) }
}

public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
