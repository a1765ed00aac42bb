#!/usr/bin/env python3
"""Mutational fuzzer for ps-render's markdown rendering (see fuzz/README.md).

Takes the corpus in Tests/CommandTests/FuzzCorpus/markdown as seeds, mutates them (byte flips,
splices, repeated nesting prefixes, control characters), renders each mutant as a finished
assistant message in every format, and saves any input that crashes ps-render (killed by a
signal), takes longer than the time limit, or lets a control character from the content through
to stdout, into fuzz/markdown/crashers/.

    fuzz/markdown/mutate.py [--minutes 60] [--seed N] [--binary .build/debug/ps-render]
"""
import json, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzzloop  # noqa: E402

TOKENS = ["> ", "- ", "1. ", "* ", "**", "*", "_", "`", "```\n", "~~~\n", "[", "](", ")", "|", "|---|\n",
          "\n", "\n\n", "    ", "<div>", "<!--", "\\", "&#x9b;", "&#27;", "\x1b[2J", "\x07", "\u009b",
          "\u202e", "\x1b]52;c;QUJD\x07", "# ", "---\n", "[x]: http://e\n", "- [ ] ", "- [x] "]
OWN = re.compile(rb"\x1b\[[0-9;]*m|\x1b\]8;;[\x21-\x7e]*\x1b\\")
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def mutate(rng, text):
    for _ in range(rng.randint(1, 6)):
        choice = rng.randrange(5)
        position = rng.randint(0, len(text))
        if choice == 0:
            text = text[:position] + rng.choice(TOKENS) + text[position:]
        elif choice == 1 and text:
            text = text[:position] + text[position + rng.randint(1, 16):]
        elif choice == 2:
            text = text[:position] + rng.choice(TOKENS) * rng.randint(2, 3000) + text[position:]
        elif choice == 3 and text:
            start = rng.randrange(len(text))
            text = text[:position] + text[start:start + rng.randint(1, 200)] + text[position:]
        else:
            text = text[:position] + chr(rng.randrange(0, 0x3000)) + text[position:]
    return text[:200_000]


def check(binary, text, timeout):
    record = (json.dumps({"role": "assistant", "parts": [{"type": "text", "text": text}]}) + "\n").encode()
    for format in ("ansi", "plain", "markdown"):
        try:
            result = subprocess.run([binary, "--format", format, "--width", "60"], input=record,
                                    capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timeout in {format}"
        if result.returncode != 0:
            return f"exit {result.returncode} in {format}: {result.stderr[:200]!r}"
        if UNSAFE.search(OWN.sub(b"", result.stdout).decode("utf-8", "replace")):
            return f"control character on stdout in {format}"
    return None


if __name__ == "__main__":
    fuzzloop.main("markdown", "ps-render", mutate, check, ".md", text=True, extra_seeds=["# Title\n\nSome *text* with `code`, a [link](http://e.com) and\n\n- a\n  - b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"])
