#!/usr/bin/python3
"""Runs a shell command with stdin, stdout and stderr on a pseudo-terminal read by a terminal
emulator (pyte), and answers each "[y/N] " prompt it shows with the next ANSWER (a line).

  confirm_terminal.py COMMAND ANSWER...

Prints one JSON object: {"status": N, "lines": [...], "prompts": P}: the exit status, every
line the terminal shows or scrolled away at the end, and how many prompts were answered.
"""
import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pyte


def main():
    command, answers = sys.argv[1], sys.argv[2:]
    screen = pyte.HistoryScreen(100, 30, history=10000)
    stream = pyte.ByteStream(screen)
    master, slave = pty.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environment["TERM"] = "xterm-256color"
    process = subprocess.Popen(["/bin/sh", "-c", command], stdin=slave, stdout=slave, stderr=slave,
                               env=environment, close_fds=True, start_new_session=True)
    os.close(slave)
    seen = b""
    prompts = 0
    end = time.monotonic() + 60
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data and process.poll() is not None:
                break
            stream.feed(data)
            seen += data
            while seen.count(b"[y/N] ") > prompts and answers:
                os.write(master, answers.pop(0).encode() + b"\n")
                prompts += 1
        elif process.poll() is not None:
            break
    if process.poll() is None:
        process.kill()
    status = process.wait()
    lines = ["".join(row[column].data for column in range(screen.columns)).rstrip() for row in screen.history.top]
    lines += [line.rstrip() for line in screen.display]
    print(json.dumps({"status": status, "lines": lines, "prompts": prompts}))


if __name__ == "__main__":
    main()
