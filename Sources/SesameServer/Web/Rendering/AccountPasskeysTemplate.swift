/// The account's passkeys page (`/account/passkeys`, docs/passkeys.md): the passkeys of the
/// browser session's user, and "Add a passkey" (``PasskeyBlock/add``).
enum AccountPasskeysTemplate {
    static let name = "account_passkeys"
    static let source = PageLayout.wrap(
        """
        <h1>{{title}}</h1>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{#notice}}<p class="hint" role="status" id="sesame-passkey-notice">{{notice}}</p>{{/notice}}
        {{#passkeys}}<ul class="passkeys">
        {{#items}}<li><bdi>{{name}}</bdi> <span class="hint">{{kind}}</span></li>
        {{/items}}</ul>{{/passkeys}}
        {{^passkeys}}<p class="hint">{{none}}</p>{{/passkeys}}
        \(PasskeyBlock.add)
        """)
}
