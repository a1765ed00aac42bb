#!/usr/bin/env python3
"""Runs one command with a generated input on its stdin and reports, as one JSON line, its exit
status, its peak resident memory (getrusage of the child, in KiB), its time and the start of
its stdout and stderr. The input is PREFIX then BYTES bytes of FILL (no line end unless FILL has
one) then SUFFIX, written in 64 KiB pieces: a command that stops reading early simply ends the writing.

    maxrss.py [--prefix TEXT] [--fill TEXT] [--bytes N] [--suffix TEXT] [--] COMMAND ARGS...

Used by the memory tests (Tests/CommandTests/AllCommands/MemoryCapTests.swift), bench/run and bench/memory/run."""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def main(argv):
    prefix, fill, count, suffix = b"", b"a", 0, b""
    while argv and argv[0].startswith("--"):
        flag = argv.pop(0)
        if flag == "--":
            break
        value = argv.pop(0)
        if flag == "--prefix":
            prefix = value.encode().decode("unicode_escape").encode("latin-1")
        elif flag == "--fill":
            fill = value.encode().decode("unicode_escape").encode("latin-1")
        elif flag == "--suffix":
            suffix = value.encode().decode("unicode_escape").encode("latin-1")
        elif flag == "--bytes":
            count = int(value)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=err)
        piece = (fill * (65536 // len(fill) + 1))[:65536 - 65536 % len(fill)]
        try:
            child.stdin.write(prefix)
            written = 0
            while written < count:
                part = piece[: count - written]
                child.stdin.write(part)
                written += len(part)
            child.stdin.write(suffix)
            child.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass
        status = child.wait()
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "status": status, "maxrssKiB": usage.ru_maxrss, "seconds": round(seconds, 2),
        "stdoutBytes": len(stdout), "stdout": stdout[:2000].decode("utf-8", "replace"),
        "stderr": stderr[:2000].decode("utf-8", "replace"),
    }))


if __name__ == "__main__":
    main(sys.argv[1:])
