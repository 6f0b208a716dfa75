# A plain-HTTP server that misbehaves on purpose, for NIOTransportLimitsTests: /big answers more
# bytes than a client should hold, /slow never answers, /ok answers a small JSON body. Prints
# its port on the first line of the file named by argv[1], then serves until killed.
import http.server, socketserver, sys, time

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", str(4 << 20))
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(64):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif self.path == "/slow":
            time.sleep(30)
        else:
            body = b'{"ok":true}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *args):
        pass

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

server = Server(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]) + "\n")
server.serve_forever()
