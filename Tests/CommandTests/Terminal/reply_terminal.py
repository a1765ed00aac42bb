#!/usr/bin/python3
"""Runs a shell command (ps-send, ps-agents ask, or a pipeline ending in ps-render) on a
pseudo-terminal and reads what it shows with a terminal emulator (pyte).

  reply_terminal.py COMMAND [WATCH]

Prints one JSON object: {"status": N, "lines": [...], "watchedWhileRunning": bool, "watchedAt": T,
"bytes": B64}: the exit status, every line the terminal shows or scrolled away at the end, whether
WATCH (a few words of the reply) was on screen while the command was still running (the reply is
live) and when it was first seen (seconds since 1970, or null), and every byte that reached the
terminal (base64), for what must never reach it.
"""
import base64
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_terminal import Terminal  # noqa: E402


def main():
    command = sys.argv[1]
    watch = sys.argv[2] if len(sys.argv) > 2 else None
    terminal = Terminal(["/bin/sh", "-c", command], columns=80, rows=24)
    terminal.process.stdin.close()  # no piped input: the arguments are the message
    received = bytearray()
    feed = terminal.stream.feed

    def keep(data):
        received.extend(data)
        feed(data)
    terminal.stream.feed = keep
    watched = False
    watched_at = None
    end = time.monotonic() + 60
    while terminal.process.poll() is None and time.monotonic() < end:
        terminal.pump(0.005)
        if watch and not watched and terminal.process.poll() is None and watch in terminal.visible_text():
            watched = True
            watched_at = time.time()
    terminal.pump(0.2)
    if terminal.process.poll() is None:
        terminal.process.kill()
    status = terminal.process.wait()
    print(json.dumps({"status": status, "lines": terminal.lines(), "watchedWhileRunning": watched, "watchedAt": watched_at,
                      "bytes": base64.b64encode(bytes(received)).decode()}))


if __name__ == "__main__":
    main()
