/// The part of a hosted form that carries an abuse challenge (``ProofOfWorkChallenge``): the
/// token and the nonce field the solver fills (``ChallengeScripts``), a progress indicator, and
/// what to do without JavaScript. Rendered only when the page's context has `challenge`.
enum ChallengeBlock {
    /// Inside the `<form>`.
    static let fields = """
        {{#challenge}}<input type="hidden" name="challenge_token" value="{{token}}">
        <input type="hidden" name="challenge_nonce" value="">
        <div id="sesame-challenge" class="challenge" data-kind="{{kind}}" data-seed="{{seed}}" data-difficulty="{{difficulty}}" hidden>
        <p class="hint" role="status">{{working}}</p>
        <progress id="sesame-challenge-progress" max="100" value="0"></progress>
        </div>
        <noscript><p class="error">{{noscript}}</p></noscript>
        {{/challenge}}
        """

    /// After the form: this origin's solver.
    static let script = """
        {{#challenge}}<script src="\(PageScripts.challenge)"></script>{{/challenge}}
        """
}
