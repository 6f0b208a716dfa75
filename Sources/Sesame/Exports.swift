// The wire models the SDK's public signatures use (`StandardClaims` from `userInfo()`,
// `MFAMethod`, `APIError`, `TokenResponse`, …) are declared in SesameProtocol, shared with the
// server. An app writes one `import Sesame` and reaches every type it is handed.
@_exported import SesameProtocol

// On Linux, `URLRequest` and `URLSession` live in FoundationNetworking; `data(for:)` takes a
// `URLRequest`, so an app on Linux gets the module with `import Sesame` as an app on a Mac does.
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
