/// The admin console's HTML shell (issue #47): a skip link, the operator, the sections as a
/// labelled navigation list with the current one marked (`aria-current`), a sign-out form (a
/// POST with its CSRF token), and the page. Inline CSS only and no script at all (CSP
/// `default-src 'none'`); every control has a label and a visible keyboard focus. Mustache
/// `{{ }}` escapes HTML; `{{{ }}}` is used only for the server-drawn charts (``ConsoleChart``).
enum ConsoleLayout {
    static func wrap(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="{{lang}}" dir="ltr">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{title}} · {{console_name}}</title>
        <style>
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d1f23;margin:0}
        a{color:#1d4fc4}
        :focus-visible{outline:3px solid #1d4fc4;outline-offset:2px}
        .skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
        header{background:#1d1f23;color:#fff;padding:.6rem 1.5rem;display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap}
        header a{color:#fff}header .name{font-weight:700}
        nav ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0;flex-wrap:wrap}
        nav a[aria-current=page]{text-decoration:none;border-bottom:2px solid #fff}
        header form{margin-left:auto;display:flex;gap:1rem;align-items:center}
        header button{background:none;border:1px solid #fff;color:#fff;border-radius:4px;padding:.3rem .7rem;cursor:pointer}
        main{max-width:72rem;margin:1.5rem auto;background:#fff;padding:1.5rem 2rem;border-radius:10px;box-shadow:0 1px 4px rgba(0,0,0,.1)}
        h1{font-size:1.4rem;margin:0 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .6rem}
        table{border-collapse:collapse;width:100%;font-size:.92rem}
        th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e3e5e8;vertical-align:top}
        th{background:#f7f8fa}
        label{display:block;font-weight:600;margin:.8rem 0 .3rem}
        input[type=text],input[type=search],select,textarea{box-sizing:border-box;padding:.5rem;border:1px solid #8a8f98;border-radius:6px;font-size:1rem;width:100%;max-width:40rem}
        textarea{min-height:6rem;font-family:ui-monospace,monospace}
        .check label{display:inline;font-weight:400}
        button{padding:.5rem 1rem;border:0;border-radius:6px;background:#1d4fc4;color:#fff;font-size:.95rem;cursor:pointer}
        button.danger{background:#a1271b}
        .actions{display:flex;gap:.7rem;flex-wrap:wrap;margin:.5rem 0}
        .actions form{margin:0}
        form.inline{display:inline;margin:0 .5rem 0 0}
        .notice{background:#e7f5ea;color:#17532a;padding:.7rem;border-radius:6px}
        .error{background:#fdecea;color:#8a1c12;padding:.7rem;border-radius:6px}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem}
        .card{border:1px solid #e3e5e8;border-radius:8px;padding:.8rem}
        .card .big{font-size:1.6rem;font-weight:700}
        .windows{display:flex;gap:1rem;list-style:none;padding:0}
        code{background:#f0f1f3;padding:.1rem .3rem;border-radius:4px;word-break:break-all}
        svg{display:block;max-width:100%}
        </style>
        </head>
        <body>
        <a class="skip" href="#content">{{skip_label}}</a>
        {{#signed_in}}
        <header>
        <span class="name">{{console_name}}</span>
        <nav aria-label="{{nav_label}}"><ul>
        {{#nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/nav}}
        </ul></nav>
        <form method="post" action="/admin/logout">
        <span>{{operator}}</span>
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <button type="submit">{{sign_out}}</button>
        </form>
        </header>
        {{/signed_in}}
        <main id="content">
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        \(body)
        </main>
        </body>
        </html>
        """
    }
}
