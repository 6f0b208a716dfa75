/// The hosted login form. Works without JavaScript; with it, passkeys are offered too
/// (``PasskeyBlock``). The validated authorization
/// request travels in hidden fields and is validated again on POST, so no form state lives in
/// server memory; `csrf_token` is the double-submit value of the `sesame_csrf` cookie.
enum LoginTemplate {
    static let name = "login"
    static let source = PageLayout.wrap(
        """
        <h1>{{heading_before}}<bdi>{{client_name}}</bdi>{{heading_after}}</h1>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/login">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}
        <label for="username">{{username_label}}</label>
        <input type="text" id="username" name="username" value="{{username}}" autocomplete="username webauthn" autocapitalize="none" required autofocus>
        <label for="password">{{password_label}}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required>
        \(ChallengeBlock.fields)
        <button type="submit">{{submit}}</button>
        </form>
        \(ChallengeBlock.script)
        \(PasskeyBlock.signIn)
        {{#providers}}<p class="federation"><a href="{{href}}">{{label}}</a></p>
        {{/providers}}
        <div class="links">
        <a href="{{signup_href}}">{{create_account}}</a>
        <a href="{{password_reset_href}}">{{forgot_password}}</a>
        </div>
        """)
}
