/// The admin console's pages (issue #47), each inside ``ConsoleLayout``. The forms that change
/// something are POSTs carrying `csrf_token`; searches and filters are GET forms, so a result is
/// a link an operator can share with a colleague (it holds no secret).
enum ConsoleTemplates {
    static let all: [(name: String, source: String)] = [
        ("home", home), ("users", users), ("user", user), ("clients", clients), ("client", client),
        ("keys", keys), ("bootstrap", bootstrap), ("providers", providers), ("audit", audit), ("message", message),
    ]

    static let home = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <nav aria-label="{{window_label}}"><ul class="windows">
        {{#windows}}<li><a href="/admin?window={{value}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/windows}}
        </ul></nav>
        <div class="cards">
        <div class="card"><div>{{users_label}}</div><div class="big">{{users}}</div></div>
        <div class="card"><div>{{sessions_label}}</div><div class="big">{{sessions}}</div></div>
        </div>
        <div class="cards">
        {{#charts}}<section class="card"><h2>{{label}}: {{total}}</h2>{{{svg}}}</section>{{/charts}}
        </div>
        <h2>{{reasons_label}}</h2>
        {{#has_reasons}}<table><thead><tr><th scope="col">{{reason_label}}</th><th scope="col">{{count_label}}</th></tr></thead><tbody>
        {{#reasons}}<tr><td><code>{{reason}}</code></td><td>{{count}}</td></tr>{{/reasons}}
        </tbody></table>{{/has_reasons}}
        {{^reasons}}<p>{{no_failures}}</p>{{/reasons}}
        <h2>{{health_label}}</h2>
        <ul>{{#health}}<li>{{.}}</li>{{/health}}</ul>
        """)

    static let users = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <form method="get" action="/admin/users" role="search">
        <label for="q">{{search_label}}</label>
        <input type="search" id="q" name="q" value="{{q}}" maxlength="100" autocomplete="off">
        <button type="submit">{{search_button}}</button>
        </form>
        {{#has_rows}}<table><thead><tr>
        <th scope="col">{{username_label}}</th><th scope="col">{{email_label}}</th><th scope="col">{{name_label}}</th>
        <th scope="col">{{status_label}}</th><th scope="col">{{role_label}}</th><th scope="col">{{matched_label}}</th>
        </tr></thead><tbody>
        {{#rows}}<tr><td><a href="/admin/users/{{id}}">{{username}}</a></td><td>{{email}}</td><td>{{name}}</td><td>{{status}}</td><td>{{role}}</td><td>{{matched}}</td></tr>{{/rows}}
        </tbody></table>{{/has_rows}}
        {{^rows}}<p>{{none}}</p>{{/rows}}
        {{#next}}<p><a href="{{next}}" rel="next">{{next_label}}</a></p>{{/next}}
        """)

    static let user = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <table><tbody>
        {{#facts}}<tr><th scope="row">{{label}}</th><td>{{value}}</td></tr>{{/facts}}
        </tbody></table>
        {{#can_manage}}
        <h2>{{actions_label}}</h2>
        <div class="actions">
        {{#actions}}<form method="post" action="/admin/users/{{id}}/{{action}}">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <button type="submit"{{#danger}} class="danger"{{/danger}}>{{label}}</button>
        </form>{{/actions}}
        </div>
        {{/can_manage}}
        {{#lists}}<h2>{{label}}</h2>
        {{#has_items}}<ul>{{#items}}<li>{{.}}</li>{{/items}}</ul>{{/has_items}}{{^items}}<p>{{none}}</p>{{/items}}
        {{/lists}}
        <h2>{{sessions_label}}</h2>
        {{#has_sessions}}<table><thead><tr><th scope="col">{{client_label}}</th><th scope="col">{{started_label}}</th><th scope="col"></th></tr></thead><tbody>
        {{#sessions}}<tr><td>{{client}}</td><td>{{started}}</td><td>{{#can_manage}}<form method="post" action="/admin/users/{{user_id}}/sessions/{{id}}/end">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}"><button type="submit" class="danger">{{end_label}}</button></form>{{/can_manage}}</td></tr>{{/sessions}}
        </tbody></table>{{/has_sessions}}
        {{^sessions}}<p>{{none}}</p>{{/sessions}}
        """)

    static let clients = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <table><thead><tr><th scope="col">{{id_label}}</th><th scope="col">{{name_label}}</th><th scope="col">{{kind_label}}</th></tr></thead><tbody>
        {{#rows}}<tr><td><a href="/admin/clients/{{id}}">{{id}}</a></td><td>{{name}}</td><td>{{kind}}</td></tr>{{/rows}}
        </tbody></table>
        """)

    static let providers = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <p>{{intro}}</p>
        <table><thead><tr><th scope="col">{{id_label}}</th><th scope="col">{{kind_label}}</th><th scope="col">{{issuer_label}}</th><th scope="col">{{audiences_label}}</th><th scope="col">{{hosted_label}}</th></tr></thead><tbody>
        {{#rows}}<tr><td>{{id}}</td><td>{{kind}}</td><td>{{issuer}}</td><td>{{audiences}}</td><td>{{hosted}}</td></tr>{{/rows}}
        </tbody></table>
        {{^rows}}<p>{{empty}}</p>{{/rows}}
        """)

    static let client = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        {{#built_in}}<p>{{built_in}}</p>{{/built_in}}
        <table><tbody>
        {{#facts}}<tr><th scope="row">{{label}}</th><td>{{value}}</td></tr>{{/facts}}
        </tbody></table>
        {{#editable}}
        <h2>{{settings_label}}</h2>
        <form method="post" action="/admin/clients/{{id}}">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <label for="name">{{name_label}}</label>
        <input type="text" id="name" name="name" value="{{name}}" maxlength="200">
        <label for="redirect_uris">{{redirect_label}}</label>
        <textarea id="redirect_uris" name="redirect_uris">{{redirect_uris}}</textarea>
        <label for="post_logout_redirect_uris">{{post_logout_label}}</label>
        <textarea id="post_logout_redirect_uris" name="post_logout_redirect_uris">{{post_logout_redirect_uris}}</textarea>
        <label for="mfa_policy">{{mfa_label}}</label>
        <select id="mfa_policy" name="mfa_policy">{{#mfa_options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/mfa_options}}</select>
        <p class="check"><input type="checkbox" id="require_par" name="require_par" value="on"{{#require_par}} checked{{/require_par}}> <label for="require_par">{{par_label}}</label></p>
        <p class="check"><input type="checkbox" id="dpop" name="dpop" value="on"{{#dpop}} checked{{/dpop}}> <label for="dpop">{{dpop_label}}</label></p>
        <label for="pin_length">{{pin_length_label}}</label>
        <input type="number" id="pin_length" name="pin_length" value="{{pin_length}}" min="4" max="12">
        <label for="pin_max_attempts">{{pin_attempts_label}}</label>
        <input type="number" id="pin_max_attempts" name="pin_max_attempts" value="{{pin_max_attempts}}" min="1" max="10">
        <button type="submit">{{save}}</button>
        </form>
        {{/editable}}
        """)

    static let bootstrap = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <p>{{intro}}</p>
        <form method="post" action="/admin/bootstrap">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <label for="code">{{code_label}}</label>
        <input type="text" id="code" name="code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="64" required>
        <button type="submit">{{submit}}</button>
        </form>
        """)

    static let keys = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <table><thead><tr><th scope="col">{{kid_label}}</th><th scope="col">{{algorithm_label}}</th><th scope="col">{{created_label}}</th><th scope="col">{{state_label}}</th>{{#can_rotate}}<th scope="col">{{actions_label}}</th>{{/can_rotate}}</tr></thead><tbody>
        {{#rows}}<tr><td><code>{{kid}}</code></td><td>{{algorithm}}</td><td>{{created}}</td><td>{{state}}</td>{{#can_rotate}}<td>{{#retirable}}<form method="post" action="/admin/keys/{{kid_path}}/retire" class="inline">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}"><button type="submit" aria-label="{{retire}} {{kid}}">{{retire}}</button></form>
        <form method="post" action="/admin/keys/{{kid_path}}/retire" class="inline">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}"><input type="hidden" name="immediately" value="on"><button type="submit" class="danger" aria-label="{{remove}} {{kid}}">{{remove}}</button></form>{{/retirable}}</td>{{/can_rotate}}</tr>{{/rows}}
        </tbody></table>
        {{#can_rotate}}<form method="post" action="/admin/keys/rotate">
        <input type="hidden" name="csrf_token" value="{{csrf_token}}">
        <p><button type="submit" class="danger">{{rotate}}</button></p>
        </form>{{/can_rotate}}
        """)

    static let audit = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <form method="get" action="/admin/audit">
        <label for="event">{{event_label}}</label><input type="text" id="event" name="event" value="{{event}}" maxlength="100">
        <label for="user">{{user_label}}</label><input type="text" id="user" name="user" value="{{user}}" maxlength="200">
        <label for="client">{{client_label}}</label><input type="text" id="client" name="client" value="{{client}}" maxlength="200">
        <label for="since">{{since_label}}</label>
        <select id="since" name="since">{{#since_options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/since_options}}</select>
        <p><button type="submit">{{filter}}</button> <a href="{{export}}">{{export_label}}</a></p>
        </form>
        {{#has_rows}}<table><thead><tr><th scope="col">{{time_label}}</th><th scope="col">{{event_column}}</th><th scope="col">{{reason_label}}</th>
        <th scope="col">{{user_column}}</th><th scope="col">{{client_column}}</th><th scope="col">{{address_label}}</th><th scope="col">{{detail_label}}</th></tr></thead><tbody>
        {{#rows}}<tr><td>{{time}}</td><td><code>{{event}}</code></td><td>{{reason}}</td><td>{{user}}</td><td>{{client}}</td><td>{{address}}</td><td>{{detail}}</td></tr>{{/rows}}
        </tbody></table>{{/has_rows}}
        {{^rows}}<p>{{none}}</p>{{/rows}}
        {{#older}}<p><a href="{{older}}" rel="next">{{older_label}}</a></p>{{/older}}
        """)

    static let message = ConsoleLayout.wrap(
        """
        <h1>{{title}}</h1>
        <p>{{message}}</p>
        {{#link}}<p><a href="{{href}}">{{label}}</a></p>{{/link}}
        """)
}
