#!/usr/bin/env python3
"""Mutational fuzzer for ps-parts (see fuzz/README.md).

Takes the corpus in Tests/CommandTests/FuzzCorpus/parts as seeds (NDJSON: event records as ps-sse
writes them, bare chunks, history lines), mutates them line by line (dropped, repeated and swapped
records, chunk types and ids exchanged, fields given values of another type, huge and deep values,
numbers beyond 64 bits) and as bytes (cuts, splices, invalid UTF-8, escapes), runs ps-parts on each
mutant (part records and --final), and saves any input that crashes ps-parts (killed by a signal),
takes longer than the time limit, exits with a status ps-parts does not document for input (0, 3,
10), or writes a line that is not JSON, into fuzz/parts/crashers/.

    fuzz/parts/mutate.py [--minutes 60] [--seed N] [--binary .build/debug/ps-parts]
"""
import json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzzloop  # noqa: E402

MODES = [[], ["--final"]]
STATUSES = {0, 3, 10}
TYPES = ["start", "start-step", "finish-step", "reset-step", "finish", "abort", "error", "message-metadata",
         "text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end",
         "tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error",
         "tool-output-available", "tool-output-error", "tool-output-denied", "tool-approval-request",
         "tool-approval-response", "source-url", "source-document", "file", "custom", "data-x", "text",
         "reasoning", "tool-call", "tool-result", "data"]
EVENTS = ["message", "data-stream", "token", "thought", "tool-call", "tool-result", "done", "error"]
VALUES = [None, True, 0, -1, 1.5, 123456789012345678901234567890, "", "0", "t", "x" * 5000, [], {}, [1, [2]],
          {"0": 1, "b": 2}, {"__proto__": {}}, {"openai": {"id": 1}}, "stop", "\u0000\u202e\x1b[2J"]
BYTES = [b"\\u0000", b"\\ud800", b"\xff", b"\xc3", b"\x00", b"\\", b'"', b"{", b"}", b"]", b",", b"\r", b"\t",
         b"1e400", b"-9223372036854775809", b'"delta":"', b"[DONE]"]


def deep(rng):
    depth = rng.choice([10, 100, 500])
    return json.loads("[" * depth + "]" * depth)


def change(rng, value):
    """One structural change to a decoded line."""
    target = value.get("data") if isinstance(value, dict) and isinstance(value.get("data"), dict) else value
    if not isinstance(target, dict):
        return rng.choice(VALUES)
    choice = rng.randrange(6)
    keys = list(target)
    if choice == 0:
        target["type"] = rng.choice(TYPES)
    elif choice == 1 and keys:
        target[rng.choice(keys)] = rng.choice(VALUES)
    elif choice == 2 and keys:
        del target[rng.choice(keys)]
    elif choice == 3:
        target[rng.choice(["id", "toolCallId", "approvalId", "delta", "inputTextDelta", "output", "input",
                           "messageMetadata", "providerMetadata", "finishReason", "transient"])] = rng.choice(VALUES)
    elif choice == 4 and isinstance(value, dict) and "event" in value:
        value["event"] = rng.choice(EVENTS)
    else:
        target[rng.choice(keys) if keys else "data"] = deep(rng)
    return value


def mutate(rng, text):
    lines = text.split(b"\n")
    for _ in range(rng.randint(1, 8)):
        if not lines:
            lines = [b""]
        choice = rng.randrange(8)
        index = rng.randrange(len(lines))
        if choice == 0:
            del lines[index]
        elif choice == 1:
            lines[index:index] = [lines[rng.randrange(len(lines))]] * rng.randint(1, 50)
        elif choice == 2:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        elif choice in (3, 4):
            try:
                value = json.loads(lines[index])
            except (ValueError, RecursionError):
                continue
            lines[index] = json.dumps(change(rng, value), separators=(",", ":"), ensure_ascii=rng.random() < 0.3).encode("utf-8", "surrogatepass")
        elif choice == 5:
            line = lines[index]
            position = rng.randint(0, len(line))
            lines[index] = line[:position] + rng.choice(BYTES) + line[position + rng.randint(0, 2):]
        elif choice == 6:
            depth = rng.choice([100, 2047, 2048, 5000])
            lines.insert(index, b'{"event":"message","id":"","data":{"type":"data-deep","data":' + b"[" * depth + b"]" * depth + b"}}")
        else:
            lines = lines[:index]  # cut short
    return b"\n".join(lines)[:4_000_000]


def check(binary, data, timeout):
    for mode in MODES:
        try:
            result = subprocess.run([binary, *mode], input=data, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timeout with {mode}"
        if result.returncode not in STATUSES:
            return f"exit {result.returncode} with {mode}: {result.stderr[:200]!r}"
        for line in result.stdout.split(b"\n")[:-1]:
            try:
                json.loads(line, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
            except RecursionError:
                pass  # deeper than Python reads: valid, as the nesting the input had
            except ValueError:
                return f"not JSON with {mode}: {line[:120]!r}"
    return None


if __name__ == "__main__":
    fuzzloop.main("parts", "ps-parts", mutate, check, ".ndjson")
