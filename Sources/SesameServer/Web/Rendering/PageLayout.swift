/// The shared HTML shell of every page: inline CSS only (CSP `style-src 'self' 'unsafe-inline'`),
/// no scripts but this origin's own (the challenge solver, ``ChallengeBlock``; the passkey
/// script, ``PasskeyBlock``), no external resources (RFC 9700 §4.2.4). Mustache `{{ }}` escapes HTML.
/// `lang` is the resolved locale and `dir` its writing direction (`rtl` for Arabic; `ltr` when a
/// page does not set it),.
enum PageLayout {
    static func wrap(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="{{lang}}" dir="{{dir}}{{^dir}}ltr{{/dir}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{title}}</title>
        {{#refresh}}<meta http-equiv="refresh" content="0;url={{refresh}}">{{/refresh}}
        <style>
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d1f23;margin:0}
        main{max-width:24rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.1)}
        h1{font-size:1.4rem;margin:0 0 1rem}
        label{display:block;margin:1rem 0 .3rem;font-weight:600}
        input[type=text],input[type=password],input[type=email]{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #b8bcc4;border-radius:6px;font-size:1rem}
        button{margin-top:1.5rem;width:100%;padding:.7rem;border:0;border-radius:6px;background:#2457d6;color:#fff;font-size:1rem}
        .error{background:#fdecea;color:#8a1c12;padding:.7rem;border-radius:6px}
        .error p{margin:.2rem 0}
        .hint{font-size:.85rem;color:#555;margin:.3rem 0 0}
        button.secondary{background:#fff;color:#2457d6;border:1px solid #2457d6;margin-top:.7rem}
        input[aria-invalid=true]{border-color:#8a1c12}
        .links{margin-top:1.5rem;display:flex;justify-content:space-between;gap:1rem;font-size:.9rem}
        code{background:#f0f1f3;padding:.1rem .3rem;border-radius:4px}
        progress{width:100%}
        .passkey button,#sesame-passkey-add button{background:#fff;color:#2457d6;border:1px solid #2457d6}
        ul.passkeys{padding-left:1.2rem}
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>
        """
    }
}
