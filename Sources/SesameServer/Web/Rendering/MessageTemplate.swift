/// A page with a title and a message: error pages (with an error reference), the signed-out
/// page, the server's home page (with its links) and the pages that move on at once.
enum MessageTemplate {
    static let name = "message"
    static let source = PageLayout.wrap(
        """
        <h1>{{title}}</h1>
        <p>{{message}}</p>
        {{#help}}<p>{{help}}</p>{{/help}}
        {{#reference}}<p>{{reference_label}}: <code>{{reference}}</code></p>{{/reference}}
        {{#back_link}}<p><a href="{{back_link}}">{{back_label}}</a></p>{{/back_link}}
        {{#links}}<ul>{{#items}}<li><a href="{{href}}">{{label}}</a></li>{{/items}}</ul>{{/links}}
        {{#refresh}}<p><a href="{{refresh}}">{{continue_label}}</a></p>{{/refresh}}
        """)
}
