#!/usr/bin/env python3
"""Mutational fuzzer for ps-sse (see fuzz/README.md).

Takes the corpus in Tests/CommandTests/FuzzCorpus/sse as seeds (byte streams: SSE and the AI SDK
v4 data stream), mutates them as bytes (field names, line ends of every kind, byte order marks,
floods of line ends, long comments and lines, invalid UTF-8, NUL, numbers beyond 64 bits, cuts
and splices), runs ps-sse on each mutant in every mode, and saves any input that crashes ps-sse
(killed by a signal), takes longer than the time limit, exits with a status ps-sse does not
document for input (0, 3, 10), or writes a line that is not a JSON event record, or, with its
output on a pseudo-terminal, lets a control character reach it raw (ESC, a C1 control, a bidi
control: on a terminal they are written as \\u escapes), into fuzz/sse/crashers/.

    fuzz/sse/mutate.py [--minutes 60] [--seed N] [--binary .build/debug/ps-sse]
"""
import json, os, re, select, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzzloop  # noqa: E402

MODES = [[], ["--raw"], ["--format", "sse"], ["--format", "data-stream"]]
STATUSES = {0, 3, 10}
TOKENS = [b"data: ", b"data:", b"event: ", b"id: ", b"retry: ", b"retry: 99999999999999999999", b":", b": comment",
          b"\r", b"\n", b"\r\n", b"\n\n", b"\r\r", b"\xef\xbb\xbf", b"0:", b"d:", b"9:", b"f:", b"e:",
          b'{"type":"text-delta","id":"0","delta":"', b'"}', b"[DONE]", b"{", b"}", b"[", b"]", b'"', b"\\",
          b"\\u0000", b"\\ud800", b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x80\xae", b"\x1b[2J",
          b"\xc2\x9b31m", b"\xc2\x85", b"\xc2\x9d0;x\xc2\x9c", b"\xe2\x81\xa6", b"\xe2\x80\xaa",
          b"123456789012345678901234567890", b"1e400", b"-0", b" ", b"\t"]


def mutate(rng, data):
    for _ in range(rng.randint(1, 6)):
        choice = rng.randrange(6)
        position = rng.randint(0, len(data))
        if choice == 0:
            data = data[:position] + rng.choice(TOKENS) + data[position:]
        elif choice == 1 and data:
            data = data[:position] + data[position + rng.randint(1, 32):]
        elif choice == 2:
            data = data[:position] + rng.choice(TOKENS) * rng.randint(2, 20000) + data[position:]
        elif choice == 3 and data:
            start = rng.randrange(len(data))
            data = data[:position] + data[start:start + rng.randint(1, 400)] + data[position:]
        elif choice == 4:
            data = data[:position]  # cut short
        else:
            data = data[:position] + bytes([rng.randrange(256)]) + data[position:]
    return data[:2_000_000]


def is_record(line):
    try:
        value = json.loads(line, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    except RecursionError:
        return line.startswith(b'{"event":')  # deeper than Python reads
    except ValueError:
        return False
    return isinstance(value, dict) and list(value)[:3] == ["event", "id", "data"]


RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def on_terminal(binary, data, timeout):
    """ps-sse's output when its stdout is a pseudo-terminal (None on a timeout)."""
    leader, follower = os.openpty()
    process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=follower, stderr=subprocess.DEVNULL)
    os.close(follower)

    def feed():
        try:
            process.stdin.write(data)
            process.stdin.close()
        except BrokenPipeError:
            pass
    threading.Thread(target=feed, daemon=True).start()
    shown, deadline = bytearray(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        if select.select([leader], [], [], 0.1)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break  # the terminal's other side is closed: all is read
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None and not select.select([leader], [], [], 0)[0]:
            break
    os.close(leader)
    try:
        process.wait(timeout=max(0.5, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None
    return bytes(shown)


def check(binary, data, timeout):
    shown = on_terminal(binary, data, timeout)
    if shown is None:
        return "timeout on a terminal"
    raw = RAW_CONTROL.search(shown.replace(b"\r\n", b"\n"))
    if raw:
        return f"a control character raw on a terminal: {shown[max(0, raw.start() - 40):raw.end() + 10]!r}"
    for mode in MODES:
        try:
            result = subprocess.run([binary, *mode], input=data, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timeout with {mode}"
        if result.returncode not in STATUSES:
            return f"exit {result.returncode} with {mode}: {result.stderr[:200]!r}"
        if result.stdout and not result.stdout.endswith(b"\n"):
            return f"unterminated output with {mode}"
        for line in result.stdout.split(b"\n")[:-1]:
            if not is_record(line):
                return f"not an event record with {mode}: {line[:120]!r}"
    return None


if __name__ == "__main__":
    fuzzloop.main("sse", "ps-sse", mutate, check, ".sse")
