#!/usr/bin/env python3
"""Mutational fuzzer for ps-archive and ps-search --archive (see fuzz/README.md).

Takes the corpus in Tests/CommandTests/FuzzCorpus/archive as seeds (NDJSON message records as
ps-history writes them), mutates them line by line (fields nested up to and past SQLite's JSON
depth, keys written with escapes, NUL and other escapes in texts, long texts of one repeated word,
parts of other types and shapes, ids repeated, deletions) and stores each mutant in a new archive.
Then it searches the archive with the words of the texts and with FTS5's syntax, special queries
("*id", "*reads") among it, and stores every record again with its words changed, then deletes
them all. It saves every input for which a command is killed by a signal, takes longer than the
time limit, or exits with a status not documented for it (ps-archive 0 or 3, ps-search 0 or 2),
or after which a search finds a message by a word it no longer holds (the index out of step with
the records), into fuzz/archive/crashers/.

    fuzz/archive/mutate.py [--minutes 60] [--seed N] [--binary .build/debug/ps-archive]

ps-search is taken from beside --binary.
"""
import json, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzzloop  # noqa: E402

sys.setrecursionlimit(20000)  # records nested thousands deep are read and written here too

QUERIES = ["*id", "*id 1", "*reads", "*", '"unclosed', "text: hello", "reasoning: hello", "tool: weather",
           "NEAR(hello world, 2)", "hello OR world", "hello NOT world", "hel*", "AND", "(", "x:y", "\"\"", "^hello"]
KEYS = ["text", "type", "parts", "content", "role", "id", "toolName", "input", "output"]


def escaped(key, rng):
    """The key with one of its letters written as a \\u escape (JSON text)."""
    index = rng.randrange(len(key))
    return json.dumps(key[:index]) [:-1] + "\\u%04x" % ord(key[index]) + json.dumps(key[index + 1:])[1:]


def nested(depth):
    return "[" * depth + "]" * depth


def mutate_line(rng, line):
    record = decoded(line)
    if record is None:
        return line
    choice = rng.randrange(8)
    parts = record.get("parts") if isinstance(record.get("parts"), list) else []
    if choice == 0:  # deep nesting, around SQLite's JSON_MAX_DEPTH and our reader's
        depth = rng.choice([998, 999, 1000, 1001, 1999, 2000, 2001, 2046])
        text = json.dumps(record)
        return text[:-1] + ',"x":' + nested(depth) + "}"
    if choice == 1:  # a key written with an escape
        text = json.dumps(record)
        key = rng.choice(KEYS)
        return text.replace(json.dumps(key) + ":", escaped(key, rng) + ":", 1)
    if choice == 2 and parts:  # a NUL or another escape in a text
        part = rng.choice(parts)
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            words = part["text"].split(" ")
            words.insert(rng.randrange(len(words) + 1), rng.choice(["\u0000", "\\u0000", "\u0001", "\u202e", "\t\n"]))
            part["text"] = " ".join(words)
    elif choice == 3 and parts:  # a long text of one repeated word
        part = rng.choice(parts)
        if isinstance(part, dict):
            part["text"] = " ".join([rng.choice(["ab", "a", "hello"])] * rng.choice([1000, 20000, 100000]))
    elif choice == 4:  # parts of other shapes
        record["parts"] = rng.choice([
            {"type": "text", "text": "an object"}, [{"type": 1, "text": "x"}], [{"type": "text", "text": 5}],
            [{"type": "tool-weather", "input": {"city": "Paris"}, "output": "sunny"}], ["text"], [None],
            [{"type": "reasoning", "text": "thinking hello"}, {"type": "text"}]])
    elif choice == 5:
        record["content"] = rng.choice(["hello content", 5, None, {"text": "x"}, "\u0000hidden"])
    elif choice == 6:
        record["id"] = rng.choice(["m1", "m2", "", 5, "x" * 300])
    else:
        return json.dumps({"id": record.get("id"), "deleted": True})
    return json.dumps(record)


def mutate(rng, seed):
    lines = [line for line in seed.split("\n") if line]
    for _ in range(rng.randint(1, 4)):
        if lines:
            index = rng.randrange(len(lines))
            lines[index] = mutate_line(rng, lines[index])
    return "\n".join(lines) + "\n"


def decoded(line):
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def texts(record):
    """The text parts of a record (dicts whose "text" a search reads)."""
    parts = record.get("parts") if record else None
    if not isinstance(parts, list):
        return []
    return [p for p in parts if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)]


def words(line):
    """The plain words of a record's text parts, as ps-search --in reads them."""
    return sorted({w for p in texts(decoded(line)) for w in re.findall(r"[a-z]{4,}", p["text"])})[:5]


def changed(line):
    """The record with every word of its text parts replaced (the line itself when not JSON)."""
    record = decoded(line)
    if record is None:
        return line
    for part in texts(record):
        part["text"] = re.sub(r"[a-z]{4,}", "zzzz", part["text"])
    return json.dumps(record)


def run(command, data, timeout):
    try:
        result = subprocess.run(command, input=data.encode("utf-8", "surrogatepass"), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"{command[0]} {command[-1][:40]}: took longer than {timeout} s"
    if result.returncode < 0:
        return None, f"{command[0]} {command[-1][:40]}: killed by signal {-result.returncode}"
    return result, None


def check(binary, data, timeout):
    search = os.path.join(os.path.dirname(binary), "ps-search")
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "archive.sqlite")
        stored, problem = run([binary, "--db", db], data, timeout)
        if problem:
            return problem
        if stored.returncode not in (0, 3):
            return f"ps-archive: status {stored.returncode} {stored.stderr[:200]!r}"
        lines = [line for line in data.split("\n") if line]
        for query in QUERIES + [w for line in lines for w in words(line)]:
            found, problem = run([search, "--db", db, query], "", timeout)
            if problem:
                return problem
            if found.returncode not in (0, 2):
                return f"ps-search {query!r}: status {found.returncode} {found.stderr[:200]!r}"
        # Every message again with its words changed: no search may find it by a word it lost.
        stored, problem = run([binary, "--db", db], "\n".join(changed(line) for line in lines) + "\n", timeout)
        if problem:
            return problem
        for word in sorted({w for line in lines for w in words(line)} - {"zzzz"}):
            found, problem = run([search, "--db", db, f'text: "{word}"'], "", timeout)
            if problem:
                return problem
            if found.returncode == 0 and found.stdout.strip():
                return f"ps-search {word!r} finds a message that no longer holds it"
        ids = {decoded(line).get("id") for line in lines if decoded(line)}
        deletions = "\n".join(json.dumps({"id": i, "deleted": True}) for i in ids if isinstance(i, str) and i) + "\n"
        stored, problem = run([binary, "--db", db], deletions, timeout)
        if problem:
            return problem
        if stored.returncode not in (0, 3):
            return f"ps-archive deleting: status {stored.returncode} {stored.stderr[:200]!r}"
    return None


if __name__ == "__main__":
    fuzzloop.main("archive", "ps-archive", mutate, check, ".ndjson", text=True)
