#!/usr/bin/env python3
"""A hostile streaming server on 127.0.0.1: every POST is answered 200 text/event-stream with
one good event, then `data: ` and `a` bytes forever, never a line end (a line or event no client
can hold). With `events`, it sends instead `data: a` lines forever and never a blank line (an
event that never ends). GET /models lists one model (so an OpenAI client needs no --model);
other GETs get 404. Prints its port on stdout, then serves until killed."""
import http.server
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "line"
GOOD = b'data: {"type":"start","messageId":"msg-endless"}\n\n'
BLOCK = b"a" * 65536
LINES = b"data: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n" * 2048


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        found = self.path.endswith("/models")
        body = b'{"object":"list","data":[{"id":"m","object":"model"}]}' if found else b'{"error":"not here"}'
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("x-vercel-ai-ui-message-stream", "v1")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            self.wfile.write(GOOD)
            if MODE == "line":
                self.wfile.write(b"data: ")
            while True:
                self.wfile.write(BLOCK if MODE == "line" else LINES)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
