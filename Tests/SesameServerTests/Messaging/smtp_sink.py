#!/usr/bin/env python3
"""A minimal SMTP server for Sesame's SMTP delivery tests (RFC 5321, server side).

It accepts mail on 127.0.0.1 (a free port), never relays, and writes each message it receives
to OUTDIR/message-N.json *before* answering 250 to the end of DATA, so the client's send
returning means the file is there. The JSON holds the envelope, the AUTH exchange, the raw
DATA lines as received (still dot-stuffed) and the message after un-stuffing.

Usage: smtp_sink.py OUTDIR [--auth "PLAIN LOGIN"] [--user NAME --password SECRET] [--no-8bitmime]
The chosen port is written to OUTDIR/port. Only the standard library is used (socketserver;
Python's smtpd module is gone since 3.12).
"""
import argparse
import base64
import json
import os
import signal
import socketserver
import threading

# The parent test process may have blocked signals; let SIGTERM/SIGINT end this server.
signal.pthread_sigmask(signal.SIG_UNBLOCK, set(signal.Signals))


def watch_parent(parent, lifetime_seconds=600):
    """Exits when the test process that started the sink is gone (a crashed or killed test
    run never leaves a sink behind) or after `lifetime_seconds` whatever happens."""
    import time
    deadline = time.monotonic() + lifetime_seconds
    while os.getppid() == parent and time.monotonic() < deadline:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()

arguments = argparse.ArgumentParser()
arguments.add_argument("outdir")
arguments.add_argument("--auth", default="")
arguments.add_argument("--user", default=None)
arguments.add_argument("--password", default=None)
arguments.add_argument("--no-8bitmime", dest="eightbit", action="store_false")
options = arguments.parse_args()

counter = {"next": 0}
lock = threading.Lock()


def write_atomically(name, text):
    path = os.path.join(options.outdir, name)
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)


class Session(socketserver.StreamRequestHandler):
    def reply(self, line):
        self.wfile.write((line + "\r\n").encode("utf-8"))
        self.wfile.flush()

    def read_line(self):
        raw = self.rfile.readline(65536)
        return raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None

    def authenticate(self, line):
        parts = line.split(" ")
        mechanism = parts[1].upper() if len(parts) > 1 else ""
        if mechanism not in options.auth.upper().split():
            self.reply("504 5.5.4 Unrecognized authentication type")
            return None
        if mechanism == "PLAIN":
            fields = base64.b64decode(parts[2]).decode("utf-8").split("\0")
            user, password = fields[1], fields[2]
        else:
            self.reply("334 VXNlcm5hbWU6")
            user = base64.b64decode(self.read_line() or "").decode("utf-8")
            self.reply("334 UGFzc3dvcmQ6")
            password = base64.b64decode(self.read_line() or "").decode("utf-8")
        if user == options.user and password == options.password:
            self.reply("235 2.7.0 Authentication successful")
            return {"mechanism": mechanism, "username": user}
        self.reply("535 5.7.8 Authentication credentials invalid")
        return None

    def handle(self):
        envelope = {"ehlo": None, "auth": None, "mail_from": None, "rcpt_to": []}
        self.reply("220 sink.test ESMTP test sink")
        while True:
            line = self.read_line()
            if line is None:
                return
            verb = line.split(" ", 1)[0].upper()
            if verb == "EHLO":
                envelope["ehlo"] = line[5:]
                extensions = ["sink.test greets you"]
                if options.eightbit:
                    extensions.append("8BITMIME")
                if options.auth:
                    extensions.append("AUTH " + options.auth)
                extensions.append("HELP")
                for extension in extensions[:-1]:
                    self.reply("250-" + extension)
                self.reply("250 " + extensions[-1])
            elif verb == "AUTH":
                envelope["auth"] = self.authenticate(line)
            elif verb == "MAIL":
                if options.user and not envelope["auth"]:
                    self.reply("530 5.7.0 Authentication required")
                    continue
                envelope["mail_from"] = line
                self.reply("250 2.1.0 OK")
            elif verb == "RCPT":
                envelope["rcpt_to"].append(line)
                self.reply("250 2.1.5 OK")
            elif verb == "DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                raw_lines = []
                while True:
                    data_line = self.read_line()
                    if data_line is None or data_line == ".":
                        break
                    raw_lines.append(data_line)
                unstuffed = [l[1:] if l.startswith(".") else l for l in raw_lines]
                with lock:
                    number = counter["next"]
                    counter["next"] += 1
                record = dict(envelope, raw=raw_lines, message="\r\n".join(unstuffed))
                write_atomically("message-%03d.json" % number, json.dumps(record))
                self.reply("250 2.0.0 Queued")
            elif verb in ("RSET", "NOOP"):
                self.reply("250 2.0.0 OK")
            elif verb == "QUIT":
                self.reply("221 2.0.0 Bye")
                return
            else:
                self.reply("502 5.5.2 Command not implemented")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


with Server(("127.0.0.1", 0), Session) as server:
    write_atomically("port", str(server.server_address[1]))
    server.serve_forever()
