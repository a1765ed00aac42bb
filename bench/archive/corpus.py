#!/usr/bin/env python3
"""Writes a realistic export for the archive benchmark: COUNT message records (a few hundred
bytes of text each, English-like words drawn with a Zipf distribution from a vocabulary of
made-up words plus common English ones) spread over CONVERSATIONS conversations, preceded by
one conversation record per conversation (as ps-history --list writes them, for titles).
Deterministic (a fixed seed), so two runs write the same bytes.

    corpus.py [--messages N] [--conversations M] > export.ndjson
    corpus.py --queries EXPORT   the queries the benchmark runs, KIND<TAB>QUERY per line

The queries are what a person would type: single words and pairs of words of every frequency
(20 ranks spaced evenly on a log scale from the 30th most common word to the 15,000th; the most
common words match 5% of the messages), and phrases of two adjacent words taken from messages of
the export.
"""
import argparse
import json
import random
import sys

COMMON = ("the of and to in is that it for on with as was be by this are or from at have an but not "
          "we can will you they all which your if more one about when their has what so would there "
          "launch release review budget meeting schedule invoice deploy server database migration "
          "customer design report deadline contract shipping pricing feature roadmap question answer "
          "error timeout backup kernel network latency memory cache index query summary draft").split()
SYLLABLES = "ka lo mi ra to ne su vi pe da ri mo la zu fe go ni be tu sa".split()


def vocabulary(rng, size=20000):
    words = list(COMMON)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def sentence_maker(rng, words):
    # Zipf-like weights: word k has weight 1/(k+1).
    weights = [1.0 / (k + 1) for k in range(len(words))]
    cumulative, total = [], 0.0
    for w in weights:
        total += w
        cumulative.append(total)

    def text(length):
        picked = rng.choices(words, cum_weights=cumulative, k=length)
        picked[0] = picked[0].capitalize()
        return " ".join(picked) + "."
    return text


def queries(words, export):
    ranks = [round(30 * (500 ** (i / 19))) for i in range(20)]
    for r in ranks:
        print("one\t" + words[r])
    for i, r in enumerate(ranks):
        print("two\t" + words[r] + " " + words[ranks[(i * 7 + 3) % 20]])
    rng = random.Random(7)
    phrases = []
    with open(export) as lines:
        for line in lines:
            record = json.loads(line)
            if "parts" not in record or rng.random() > 0.05:
                continue
            tokens = [t.strip(".").lower() for t in record["parts"][0]["text"].split()]
            start = rng.randrange(len(tokens) - 1)
            phrases.append('"' + tokens[start] + " " + tokens[start + 1] + '"')
            if len(phrases) == 20:
                break
    for phrase in phrases:
        print("phrase\t" + phrase)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--queries", metavar="EXPORT", help="write the queries, phrases taken from EXPORT")
    args = parser.parse_args()
    rng = random.Random(20261124)
    words = vocabulary(rng)
    if args.queries:
        queries(words, args.queries)
        return
    text = sentence_maker(rng, words)
    out = sys.stdout
    for c in range(args.conversations):
        out.write(json.dumps({"id": f"conv{c:05d}", "title": text(4)[:-1]}, separators=(",", ":")) + "\n")
    for n in range(args.messages):
        conversation = f"conv{rng.randrange(args.conversations):05d}"
        role = "user" if n % 2 == 0 else "assistant"
        day, second = divmod(n, 86400 // 8)
        created = "2026-%02d-%02dT%02d:%02d:%02dZ" % (1 + (day // 28) % 12, 1 + day % 28,
                                                      (second * 8) // 3600, (second * 8) // 60 % 60, (second * 8) % 60)
        body = " ".join(text(rng.randint(6, 14)) for _ in range(rng.randint(2, 5)))
        record = {"id": f"msg{n:07d}", "role": role, "conversationId": conversation, "createdAt": created,
                  "parts": [{"type": "text", "text": body}]}
        out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
