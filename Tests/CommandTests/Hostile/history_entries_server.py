#!/usr/bin/env python3
"""A hostile PageSpace history on 127.0.0.1: GET .../messages answers one page whose entries
are two messages with, between them, entries that are no message (1, "x", null); every other
GET answers 200 with a conversation {id, title}. Prints its port on stdout, then serves until
killed."""
import http.server
import json


def message(number, created):
    return {"id": "m%d" % number, "role": "user", "parts": [{"type": "text", "text": "hello %d" % number}],
            "createdAt": created}


PAGE = json.dumps({"messages": [message(1, "2026-01-01T00:00:00.000Z"), 1, "x", None,
                                message(2, "2026-01-01T00:01:00.000Z")],
                   "pagination": {"hasMore": False, "nextCursor": None}}).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = PAGE if "/messages" in self.path else b'{"id":"c1","title":"t"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
