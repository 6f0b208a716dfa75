import Foundation

/// A stand-in for the user's browser, installed as `$BROWSER` for `sesame login`: a Python 3
/// script that GETs the authorization URL, fills in the login form (keeping its hidden fields,
/// parsed with `html.parser`), POSTs it, takes the 303 `Location` without following redirects
/// and finally GETs it, which lands on the CLI's loopback listener.
enum TestBrowser {
    /// Writes the script into `directory` and returns the `BROWSER` value that runs it.
    static func install(in directory: URL, username: String, password: String) throws -> [String: String] {
        let script = directory.appendingPathComponent("browser.py")
        try source.write(to: script, atomically: true, encoding: .utf8)
        return [
            "BROWSER": "python3 \(script.path)",
            "SESAME_TEST_USERNAME": username,
            "SESAME_TEST_PASSWORD": password,
        ]
    }

    static let source = #"""
        import os, sys, urllib.error, urllib.parse, urllib.request, http.cookiejar
        from html.parser import HTMLParser

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, req, fp, code, msg, headers, newurl):
                return None

        class FormParser(HTMLParser):
            def __init__(self):
                super().__init__()
                self.forms = []
            def handle_starttag(self, tag, attrs):
                attrs = dict(attrs)
                if tag == "form":
                    self.forms.append({"action": attrs.get("action") or "", "inputs": []})
                elif tag == "input" and self.forms and attrs.get("name"):
                    self.forms[-1]["inputs"].append(attrs)

        opener = urllib.request.build_opener(
            NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def fetch(url, data=None):
            try:
                response = opener.open(url, data=data, timeout=30)
                return response.status, response.headers, response.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.headers, error.read().decode()

        auth_url = sys.argv[1]
        redirect_uri = urllib.parse.parse_qs(urllib.parse.urlparse(auth_url).query)["redirect_uri"][0]
        target = urllib.parse.urlparse(redirect_uri)
        url, data, submitted = auth_url, None, False
        for _ in range(8):
            status, headers, body = fetch(url, data)
            data = None
            if 300 <= status < 400:
                url = urllib.parse.urljoin(url, headers["Location"])
                parsed = urllib.parse.urlparse(url)
                if (parsed.hostname, parsed.path) == (target.hostname, target.path):
                    fetch(url)  # the loopback listener: the CLI receives the code
                    sys.exit(0)
                continue
            parser = FormParser()
            parser.feed(body)
            forms = [f for f in parser.forms if any(i.get("type") == "password" for i in f["inputs"])]
            if status != 200 or not forms or submitted:
                sys.stderr.write("test browser: no usable login form (HTTP %d)\n" % status)
                sys.exit(1)
            fields = []
            for field in forms[0]["inputs"]:
                kind = (field.get("type") or "text").lower()
                if kind == "password":
                    fields.append((field["name"], os.environ["SESAME_TEST_PASSWORD"]))
                elif kind in ("text", "email"):
                    fields.append((field["name"], os.environ["SESAME_TEST_USERNAME"]))
                elif kind not in ("submit", "button", "checkbox", "radio"):
                    fields.append((field["name"], field.get("value") or ""))
            url = urllib.parse.urljoin(url, forms[0]["action"]) if forms[0]["action"] else url
            data = urllib.parse.urlencode(fields).encode()
            submitted = True
        sys.stderr.write("test browser: too many hops\n")
        sys.exit(1)
        """#
}
