import Foundation

/// A person approving (or denying) a device on Sesame's verification page (RFC 8628 §3.3) over
/// real HTTP: opens `verification_uri_complete` (the code is filled in), submits the code form,
/// signs in on the hosted login page (``HostedLogin``; a browser session needs no form), reads
/// the question and answers it. Returns the final page, whose text says whether the device was
/// connected.
public struct DeviceApproval: Sendable {
    public let login: HostedLogin

    public init(login: HostedLogin) { self.login = login }

    /// The answer to give on the question page.
    public enum Decision: String, Sendable {
        case approve
        case deny
    }

    /// Approves or denies the request whose complete verification URI is `uri`, in `browser`.
    public func decide(
        _ decision: Decision, at uri: URL, in browser: ScriptedBrowser = ScriptedBrowser()
    ) async throws -> ScriptedBrowser.Page {
        let page = try await browser.get(uri)
        let codeForm = HTMLForm(html: page.body)
        guard page.status == 200, codeForm.fields["user_code"]?.isEmpty == false,
            let action = URL(string: codeForm.action, relativeTo: page.url)?.absoluteURL
        else {
            throw ScriptedBrowserError(
                "the device page at \(HostedLogin.pathOnly(uri)) answered HTTP \(page.status) without the code filled in")
        }
        let entered = try await browser.post(action, codeForm.fields)
        login.say("POST \(HostedLogin.pathOnly(action)) (user_code) → \(HostedLogin.describe(entered))")
        guard entered.status == 303, let signIn = entered.location else {
            throw ScriptedBrowserError(
                "the device page refused the code (HTTP \(entered.status))", hint: "The code may have expired; start again on the device.")
        }
        guard let callback = URL(string: "/device/callback", relativeTo: uri)?.absoluteURL else {
            throw ScriptedBrowserError("the device page's address has no origin")
        }
        let back = try await login.signIn(at: signIn, redirectURI: callback, in: browser)
        let question = try await browser.get(back)
        login.say("GET \(HostedLogin.pathOnly(callback)) → \(HostedLogin.describe(question))")
        let answer = HTMLForm(html: question.body)
        guard question.status == 200, answer.fields["code"] != nil,
            let decide = URL(string: answer.action, relativeTo: question.url)?.absoluteURL
        else {
            throw ScriptedBrowserError("the sign-in for the device ended without the question (HTTP \(question.status))")
        }
        var fields = answer.fields
        fields["decision"] = decision.rawValue
        let done = try await browser.post(decide, fields)
        login.say("POST \(HostedLogin.pathOnly(decide)) (decision=\(decision.rawValue)) → \(HostedLogin.describe(done))")
        return done
    }
}
