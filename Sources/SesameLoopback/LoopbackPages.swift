/// The small self-contained pages the loopback listener answers the browser with. No external
/// resources (nothing leaks the redirect URL through a `Referer`), no scripts.
enum LoopbackPages {
    /// Shown after a successful redirect.
    static let signedIn = page(
        title: "Signed in",
        message: "Signed in — you can close this tab and return to the app."
    )
    /// Shown when the redirect carries an OAuth `error` (RFC 6749 §4.1.2.1).
    static let notSignedIn = page(
        title: "Sign-in did not complete",
        message: "Sign-in did not complete — you can close this tab; the app shows what happened."
    )
    static let notFound = page(title: "Not found", message: "Nothing here. You can close this tab.")
    static let methodNotAllowed = page(title: "Method not allowed", message: "Only GET is supported here.")

    private static func page(title: String, message: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;text-align:center}</style>
        </head><body><h1>\(title)</h1><p>\(message)</p></body></html>

        """
    }
}
