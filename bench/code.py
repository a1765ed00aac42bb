#!/usr/bin/env python3
"""Writes a code-heavy markdown message: a short paragraph, then a fenced block of 10 to 40 lines
in one of eight languages, again and again. As the message record of `ps-parts --final`, or as
ps-parts's part records with a delta of about 24 bytes each.

  code.py message --blocks N [--unknown]   one message record
  code.py parts --blocks N [--unknown]     the part records of the same message, streamed

--unknown names each block's language `x-<name>`, which no definition has: the same text rendered
without highlighting (code in one colour), to compare with in the same run.
"""
import argparse
import json
import random
import sys

SNIPPETS = {
    "python": ['def handle(request, retries=3):', '    """Sends the request again on failure."""',
               '    for attempt in range(retries):', '        try:', '            return send(request, timeout=2.5)',
               '        except TimeoutError as error:  # slow server', '            log.warning("retry %d: %s", attempt, error)',
               '    raise RuntimeError(f"gave up after {retries} tries")'],
    "javascript": ['export async function load(id, { signal } = {}) {', '  const url = `/api/pages/${id}`;',
                   '  const res = await fetch(url, { signal }); // may throw', '  if (!res.ok) throw new Error("status " + res.status);',
                   '  return res.json();', '}'],
    "sh": ['#!/bin/sh', 'set -eu', 'for f in "$@"; do', '  if [ -f "$f" ]; then', '    wc -l "$f" | awk \'{print $1}\'  # count',
           '  fi', 'done'],
    "json": ['{', '  "id": "msg-1", "role": "assistant",', '  "parts": [{"type": "text", "text": "hello", "state": "done"}],',
             '  "metadata": {"tokens": 1234, "cached": false, "ratio": 0.75}', '}'],
    "c": ['#include <stdio.h>', '/* counts the lines of a stream */', 'static long count(FILE *in) {',
          '    long n = 0; int c;', '    while ((c = getc(in)) != EOF) if (c == \'\\n\') n++;', '    return n;', '}'],
    "swift": ['struct Page: Codable {', '    let id: String', '    var title = "Untitled"  // default',
              '    func summary(limit: Int = 80) -> String {', '        return String(title.prefix(limit))', '    }', '}'],
    "go": ['func Retry(ctx context.Context, n int, f func() error) error {', '\tvar err error', '\tfor i := 0; i < n; i++ {',
           '\t\tif err = f(); err == nil {', '\t\t\treturn nil', '\t\t}', '\t}', '\treturn fmt.Errorf("after %d tries: %w", n, err)', '}'],
    "rust": ['fn parse(line: &str) -> Option<(u32, &str)> {', '    let (id, rest) = line.split_once(\':\')?; // "12:text"',
             '    Some((id.trim().parse().ok()?, rest))', '}'],
}


def markdown(blocks, unknown):
    rng = random.Random(17)
    languages = sorted(SNIPPETS)
    out = ["# Code\n"]
    for n in range(blocks):
        language = languages[n % len(languages)]
        # Every block differs from the others (its first line, where its snippet starts), as
        # real blocks do: none is a copy whose colours could be reused.
        first = {"python": "# block {}", "sh": "# block {}", "json": '{{"block": {}}}'}.get(language, "// block {}")
        snippet = SNIPPETS[language]
        start = rng.randrange(len(snippet))
        lines = [first.format(n)]
        while len(lines) < rng.randint(10, 40):
            lines += snippet[start:] + snippet[:start]
        name = "x-" + language if unknown else language
        out.append(f"Step {n}: the `{language}` part, explained in a sentence or two before the code.\n\n"
                   f"```{name}\n" + "\n".join(lines) + "\n```\n")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("format", choices=["message", "parts"])
    parser.add_argument("--blocks", type=int, required=True)
    parser.add_argument("--unknown", action="store_true")
    args = parser.parse_args()
    text = markdown(args.blocks, args.unknown)
    def record(**fields):
        sys.stdout.write(json.dumps(fields, separators=(",", ":"), ensure_ascii=False) + "\n")
    part = {"type": "text", "text": text, "state": "done"}
    if args.format == "message":
        record(id="m1", role="assistant", parts=[part])
        return
    record(type="message-start", messageId="m1", role="assistant")
    record(type="part-start", index=0, part={"type": "text", "text": "", "state": "streaming"})
    for i in range(0, len(text), 24):
        record(type="part-delta", index=0, delta=text[i:i + 24])
    record(type="part-update", index=0, part=part)
    record(type="message-end", status="complete", message={"id": "m1", "role": "assistant", "parts": [part]})


if __name__ == "__main__":
    main()
