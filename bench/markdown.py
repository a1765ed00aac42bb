#!/usr/bin/env python3
"""Writes a long markdown message (at least --bytes B bytes), as markdown or as the SSE stream of
an AI SDK answer that writes it in small text deltas.

  markdown.py md --bytes B       the markdown text
  markdown.py sse --bytes B      start, text-start, text-delta (about 24 bytes each)..., finish
"""
import argparse
import json
import random
import sys

WORDS = ("the of and to in is that for it as was with be by on not this are or from at which but "
         "have an they you were there been one all we their has would when if so no will can more "
         "stream parser renderer pipeline token delta terminal width café naïve 日本語").split()


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
    i = rng.randrange(len(words))
    words[i] = rng.choice([f"**{words[i]}**", f"*{words[i]}*", f"`{words[i]}`",
                           f"[{words[i]}](https://example.com/{i})", words[i]])
    return " ".join(words).capitalize() + "."


def code(rng, number):
    """A function whose lines are mostly its own, as an answer's code is (only the braces and the
    return repeat from one block to the next): a highlighter gains nothing from lines seen before
    that real code would not give it."""
    names = [w for w in WORDS if w.isascii()]
    lines = [f"func {rng.choice(names)}{number}(_ input: [Int], limit: Int = {rng.randint(1, 9999)}) -> Int {{\n"]
    for k in range(rng.randint(3, 8)):
        value = f"{rng.choice(names)}{k}"
        lines.append(rng.choice([
            f"    let {value} = compute(input[{rng.randint(0, 99)}], {rng.randint(1, 99999)}) // {sentence(rng)}\n",
            f"    var {value} = \"{sentence(rng)}\"\n",
            f"    if limit > {rng.randint(0, 9999)} {{ return {rng.randint(0, 999)} }} /* {rng.choice(names)} */\n",
        ]))
    lines.append("    return limit\n}\n")
    return "".join(lines)


def section(rng, number):
    out = [f"## Section {number}\n", " ".join(sentence(rng) for _ in range(rng.randint(3, 8))) + "\n"]
    out.append("".join(f"- {sentence(rng)}\n" for _ in range(rng.randint(2, 5))))
    kind = number % 4
    if kind == 0:
        out.append("```swift\n" + code(rng, number) + "```\n")
    elif kind == 1:
        rows = "".join(f"| {rng.choice(WORDS)} | {rng.randint(1, 999)} | {rng.choice(WORDS)} |\n"
                       for _ in range(rng.randint(3, 6)))
        out.append("| Name | Count | Note |\n|:-----|------:|------|\n" + rows)
    elif kind == 2:
        out.append("> " + sentence(rng) + "\n> " + sentence(rng) + "\n")
    else:
        out.append("".join(f"{k}. {sentence(rng)}\n" for k in range(1, rng.randint(3, 6))))
    out.append(" ".join(sentence(rng) for _ in range(rng.randint(2, 6))) + "\n")
    return "\n".join(out) + "\n"


def markdown(size):
    rng = random.Random(18)
    parts, total, number = ["# A long answer\n\n"], 0, 1
    while total < size:
        s = section(rng, number)
        parts.append(s)
        total += len(s.encode())
        number += 1
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("format", choices=["md", "sse"])
    parser.add_argument("--bytes", type=int, required=True)
    args = parser.parse_args()
    text = markdown(args.bytes)
    out = sys.stdout
    if args.format == "md":
        out.write(text)
        return
    def event(chunk):
        out.write("data: " + json.dumps(chunk, separators=(",", ":"), ensure_ascii=False) + "\n\n")
    event({"type": "start", "messageId": "msg-render"})
    event({"type": "start-step"})
    event({"type": "text-start", "id": "0"})
    for i in range(0, len(text), 24):
        event({"type": "text-delta", "id": "0", "delta": text[i:i + 24]})
    event({"type": "text-end", "id": "0"})
    event({"type": "finish-step"})
    event({"type": "finish", "finishReason": "stop"})
    out.write("data: [DONE]\n\n")


if __name__ == "__main__":
    main()
