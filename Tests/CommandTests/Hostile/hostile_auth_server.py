#!/usr/bin/env python3
"""A hostile PageSpace-like server on 127.0.0.1 for ps-auth. Modes:
  user      GET /api/auth/me names a user whose name, email and id hold terminal control
            sequences (OSC 52 clipboard, clear screen, the alternate screen, a C1 CSI, a newline
            that would forge a line); GET /api/drives lists one drive named the same way.
  redirect  every request is answered 301 with a Location holding an OSC 52 sequence.
  device    POST /api/oauth/device_authorization answers 200 with only a user_code (no
            device_code, no verification_uri); the discovery document is missing (404).
  token     the device authorization is whole, and the token request answers at once with an
            access_token holding an OSC 52 sequence.
Prints its port on stdout, then serves until killed."""
import http.server
import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "user"
NAME = "\x1b]52;c;ZWNobyBwd25lZA==\x07Eve\x1b[2J\x1b[?1049h"
EMAIL = "eve\u009b31m@example.com\nworks: forged"
LOCATION = "http://elsewhere.example/\x1b]52;c;AAAA\x07login"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        path = self.path.split("?")[0]
        if MODE == "redirect":
            self.answer(301, {}, [("Location", LOCATION)])
        elif MODE == "user" and path == "/api/auth/me":
            self.answer(200, {"id": "user\x1b[5m1", "name": NAME, "email": EMAIL})
        elif MODE == "user" and path == "/api/drives":
            self.answer(200, [{"id": "drive1", "name": "\x1b]0;title\x07Drive"}])
        elif MODE == "device" and path == "/api/oauth/device_authorization":
            self.answer(200, {"user_code": "ABCD-EFGH"})
        elif MODE == "token" and path == "/api/oauth/device_authorization":
            self.answer(200, {"device_code": "dc", "user_code": "ABCD-EFGH", "verification_uri": "http://127.0.0.1/device",
                              "expires_in": 600, "interval": 0})
        elif MODE == "token" and path == "/api/oauth/token":
            self.answer(200, {"access_token": "mcp_\x1b]52;c;AAAA\x07", "token_type": "mcp"})
        else:
            self.answer(404, {"error": "not here"})

    do_GET = handle_any
    do_POST = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
