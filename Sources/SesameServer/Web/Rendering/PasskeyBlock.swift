/// The passkey parts of the hosted pages (docs/passkeys.md), driven by ``PasskeyScripts``. Both
/// start `hidden`: the script shows them only where WebAuthn works, so without JavaScript or
/// WebAuthn the page is what it was.
enum PasskeyBlock {
    /// After the login form: a second form to `/login` carrying the same authorization request
    /// and CSRF token, whose `passkey_assertion` the script fills.
    static let signIn = """
        {{#passkey}}<form method="post" action="/login" id="sesame-passkey" class="passkey" hidden>
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}<input type="hidden" name="passkey_assertion" value="">
        <button type="button" id="sesame-passkey-button">{{label}}</button>
        </form>
        <script src="\(PageScripts.passkey)"></script>{{/passkey}}
        """

    /// On the account's passkeys page: the form whose `passkey_registration` the script fills.
    static let add = """
        <form method="post" action="/account/passkeys" id="sesame-passkey-add" hidden>
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <input type="hidden" name="passkey_registration" value="">
        <button type="button" id="sesame-passkey-add-button">{{add_label}}</button>
        <p id="sesame-passkey-status" class="hint" role="status"></p>
        </form>
        <noscript><p class="error">{{unsupported}}</p></noscript>
        <script src="\(PageScripts.passkey)"></script>
        """
}
