#!/usr/bin/env python3
"""Writes a recorded AI SDK UI message stream (SSE) or its data lines (NDJSON) to stdout.

  stream.py sse --events N [--tools]     N events: start, start-step, text-start, text-delta...,
                                         text-end, finish-step, finish, [DONE] (with --tools,
                                         a tool call with streamed input and an output every
                                         ~200 events, in a new step)
  stream.py ndjson --events N [--tools]  the same chunks as plain JSON lines (no [DONE])
  --spaced                               chunks spelled {"type": "text-delta", "id": …} (a space
                                         after : and ,), as Python's json.dumps writes them
  stream.py sse|ndjson --bytes B         at least B bytes of events, made on the fly (for memory
                                         tests: nothing is stored)
"""
import argparse
import json
import random
import sys

WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at "
         "which but have an they you were her she there been one all we their has would when if "
         "so no will can more other its into than about only time some could them these two may "
         "first then do any like my now over such our man me even most made after also did many "
         "markdown stream parser renderer **bold** `code` pipeline token delta").split()


SEPARATORS = (",", ":")


def chunk(obj):
    return json.dumps(obj, separators=SEPARATORS, ensure_ascii=False)


def chunks(count, tools, rng):
    """Yields exactly `count` chunk JSON texts (the last is [DONE] for SSE, left to the caller)."""
    head = [{"type": "start", "messageId": "msg-bench-0001"}, {"type": "start-step"},
            {"type": "text-start", "id": "txt-0"}]
    body = count - len(head) - 3
    for c in head:
        yield chunk(c)
    produced = 0
    tool_number = 0
    text_id = 0
    while produced < body:
        if tools and produced % 200 == 199 and body - produced > 12:
            call = f"call-{tool_number:06d}"
            tool_number += 1
            group = [{"type": "text-end", "id": f"txt-{text_id}"}, {"type": "finish-step"}, {"type": "start-step"},
                     {"type": "tool-input-start", "toolCallId": call, "toolName": "read_page"},
                     {"type": "tool-input-delta", "toolCallId": call, "inputTextDelta": "{\"pageId\":\"pg-"},
                     {"type": "tool-input-delta", "toolCallId": call, "inputTextDelta": f"{tool_number:06d}\"}}"},
                     {"type": "tool-input-available", "toolCallId": call, "toolName": "read_page",
                      "input": {"pageId": f"pg-{tool_number:06d}"}},
                     {"type": "tool-output-available", "toolCallId": call,
                      "output": {"title": "Notes", "content": "Some page text, with \"quotes\" and é."}},
                     {"type": "finish-step"}, {"type": "start-step"}]
            text_id += 1
            group.append({"type": "text-start", "id": f"txt-{text_id}"})
            for c in group:
                yield chunk(c)
            produced += len(group)
            continue
        delta = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))) + " "
        yield chunk({"type": "text-delta", "id": f"txt-{text_id}", "delta": delta})
        produced += 1
    # The open text part is the last one started, not txt-0.
    tail = [{"type": "text-end", "id": f"txt-{text_id}"}, {"type": "finish-step"},
            {"type": "finish", "finishReason": "stop"}]
    for c in tail:
        yield chunk(c)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("format", choices=["sse", "ndjson"])
    parser.add_argument("--events", type=int)
    parser.add_argument("--bytes", type=int)
    parser.add_argument("--tools", action="store_true")
    parser.add_argument("--spaced", action="store_true", help="spell chunks as Python's json.dumps does")
    args = parser.parse_args()
    if args.spaced:
        global SEPARATORS
        SEPARATORS = (", ", ": ")
    out = sys.stdout.buffer
    rng = random.Random(7)
    if args.bytes is not None:
        # A block of distinct events, written again and again: memory-flat for the generator too.
        template = "data: {}\n\n" if args.format == "sse" else "{}\n"
        block = "".join(template.format(c) for c in chunks(20000, True, rng)).encode()
        written = 0
        while written < args.bytes:
            out.write(block)
            written += len(block)
        if args.format == "sse":
            out.write(b"data: [DONE]\n\n")
        return
    count = args.events
    if args.format == "sse":
        lines = (f"data: {c}\n\n" for c in chunks(count - 1, args.tools, rng))
        end = "data: [DONE]\n\n"
    else:
        lines = (c + "\n" for c in chunks(count - 1, args.tools, rng))
        end = ""
    batch = []
    for line in lines:
        batch.append(line)
        if len(batch) >= 10000:
            out.write("".join(batch).encode())
            batch = []
    batch.append(end)
    out.write("".join(batch).encode())


if __name__ == "__main__":
    main()
