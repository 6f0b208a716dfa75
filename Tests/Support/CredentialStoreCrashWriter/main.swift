// A child process for EncryptedFileCredentialStoreCrashTests: rewrites file-store records with
// increasing generation numbers until it is killed (SIGKILL at a random moment).
//
// Usage: CredentialStoreCrashWriter <directory> <key-file> <record-name>...
//
// Each record holds "<record-name>|<generation>|" followed by padding, so a torn write would be
// visible. The generation continues from the highest one already stored, so the parent can check
// that what it reads is never older than what it read before the previous kill.
import Foundation
import Sesame

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The writer runs flat out, and the crash test starts a thousand of them while the rest of the
// suite runs beside it: at the lowest priority it takes only the CPU no test wants, instead of
// starving the in-process servers whose timeouts the other tests measure.
#if canImport(Glibc)
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
#else
    _ = setpriority(PRIO_PROCESS, 0, 19)
#endif

/// The payload of `name` at `generation`; padded to several KiB so a write takes several syscalls.
func payload(name: String, generation: Int) -> Data {
    Data("\(name)|\(generation)|".utf8) + Data(repeating: UInt8(ascii: "x"), count: 4096 + generation % 97)
}

/// The generation stored in a payload, or `nil` if it is not one of ours.
func generation(in data: Data, name: String) -> Int? {
    let parts = String(decoding: data.prefix(200), as: UTF8.self).split(separator: "|", maxSplits: 2)
    guard parts.count >= 2, parts[0] == name else { return nil }
    return Int(parts[1])
}

/// Progress on standard output, unbuffered so nothing is lost when the process is killed.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CredentialStoreCrashWriter: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    fail("usage: CredentialStoreCrashWriter <directory> <key-file> <record-name>...")
}
let names = Array(arguments[3...])

do {
    let store = try EncryptedFileCredentialStore(
        directory: URL(fileURLWithPath: arguments[1], isDirectory: true),
        keySource: .keyFile(URL(fileURLWithPath: arguments[2]))
    )
    var generationNumber = 0
    for name in names {
        if let data = try await store.load(name) {
            guard let stored = generation(in: data, name: name) else { fail("record \(name) has foreign contents") }
            generationNumber = max(generationNumber, stored)
        }
    }
    report("ready \(generationNumber)")
    while true {
        generationNumber += 1
        for name in names {
            try await store.save(payload(name: name, generation: generationNumber), for: name)
        }
        report("generation \(generationNumber)")
    }
} catch {
    fail("\(error)")
}
