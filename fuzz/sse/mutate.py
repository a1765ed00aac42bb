#!/usr/bin/env python3
"""Mutational fuzzer for ps-sse (see fuzz/README.md).

Takes the corpus in Tests/CommandTests/FuzzCorpus/sse as seeds (byte streams: SSE and the AI SDK
v4 data stream), mutates them as bytes (field names, line ends of every kind, byte order marks,
floods of line ends, long comments and lines, invalid UTF-8, NUL, numbers beyond 64 bits, cuts
and splices), runs ps-sse on each mutant in every mode, and saves any input that crashes ps-sse
(killed by a signal), takes longer than the time limit, exits with a status ps-sse does not
document for input (0, 3, 10), or writes a line that is not a JSON event record, into
fuzz/sse/crashers/.

    fuzz/sse/mutate.py [--minutes 60] [--seed N] [--binary .build/debug/ps-sse]
"""
import json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzzloop  # noqa: E402

MODES = [[], ["--raw"], ["--format", "sse"], ["--format", "data-stream"]]
STATUSES = {0, 3, 10}
TOKENS = [b"data: ", b"data:", b"event: ", b"id: ", b"retry: ", b"retry: 99999999999999999999", b":", b": comment",
          b"\r", b"\n", b"\r\n", b"\n\n", b"\r\r", b"\xef\xbb\xbf", b"0:", b"d:", b"9:", b"f:", b"e:",
          b'{"type":"text-delta","id":"0","delta":"', b'"}', b"[DONE]", b"{", b"}", b"[", b"]", b'"', b"\\",
          b"\\u0000", b"\\ud800", b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x80\xae", b"\x1b[2J",
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


def check(binary, data, timeout):
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
