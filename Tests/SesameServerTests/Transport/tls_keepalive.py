"""One TLS connection across a certificate reload (ServerTLSTests): GET /health, then wait for the
test's go file, then GET /health again on the same connection. Writes each status line and the
certificate's subject to OUT.
Usage: tls_keepalive.py PORT CA_FILE READY_FILE GO_FILE OUT_FILE"""
import os, socket, ssl, sys, time

port, ca, ready, go, out = sys.argv[1:6]
context = ssl.create_default_context(cafile=ca)
connection = context.wrap_socket(socket.create_connection(("127.0.0.1", int(port)), timeout=20), server_hostname="127.0.0.1")
buffer = b""


def get():
    global buffer
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    while b"\r\n\r\n" not in buffer:
        buffer += connection.recv(4096)
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(buffer) < length:
        buffer += connection.recv(4096)
    buffer = buffer[length:]
    return head.split(b"\r\n")[0].decode()


subject = dict(item[0] for item in connection.getpeercert()["subject"])["commonName"]
lines = [get() + " " + subject]
open(ready, "w").close()
deadline = time.time() + 20
while not os.path.exists(go) and time.time() < deadline:
    time.sleep(0.02)
lines.append(get() + " " + subject)
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
