extension String {
    /// The string's UTF-8 appended to `bytes` as one copy of its contiguous storage: about a
    /// fifth cheaper per call than `bytes.append(contentsOf: utf8)`, which a log line does a dozen
    /// times (issue #50, measured in a release build: 222 against 270 ns for a line's 13 parts).
    package func appendUTF8(to bytes: inout [UInt8]) {
        var string = self
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
