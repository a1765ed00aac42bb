#!/usr/bin/env python3
"""Times searches from process start to the last result written, for the archive benchmark.
Reads the queries (KIND<TAB>QUERY lines) from corpus.py --queries and runs, for each,
ps-search on the archive ROUNDS times, and `grep -c -F` over the NDJSON export (the floor of a
search with no index) REFERENCE_ROUNDS times, interleaved. Prints a table per query kind:
median and p99 in milliseconds (wall), the median and p99 CPU time (user + system: what the
wall time would be on an idle machine), the median CPU time less ps-search's start-up (the
median CPU time of `ps-search --version`: what the query itself costs), the number of hits, and
the reference's median beside them.

    timings.py ARCHIVE NDJSON QUERIES [ROUNDS] [REFERENCE_ROUNDS]
"""
import resource
import statistics
import subprocess
import sys
import time


CPU = []


def timed(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    if result.returncode not in (0, 1):  # grep -c exits 1 on no match
        sys.exit(f"timings: {' '.join(argv)} exited {result.returncode}: {result.stderr.decode()[:200]}")
    return elapsed, result.stdout


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    archive, ndjson, queries_file = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    reference_rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    kinds = {}
    for line in open(queries_file):
        kind, query = line.rstrip("\n").split("\t", 1)
        kinds.setdefault(kind, []).append(query)
    for _ in range(max(rounds, 10)):
        timed(["ps-search", "--version"])
    startup = statistics.median(CPU)
    print(f"ps-search start-up (--version): {startup:.1f} ms CPU at the median")
    CPU.clear()
    print(f"{'query kind':<10} {'n':>4} {'median ms':>10} {'p99 ms':>8} {'CPU median':>10} {'CPU p99':>8} {'less start-up':>13} {'hits':>6}   "
          f"{'grep -c -F median ms':>21} {'grep / ps-search':>17}")
    for kind, queries in kinds.items():
        ours, theirs, hits, cpu = [], [], [], []
        for query in queries:
            words = query.strip('"').split(" ")
            grep = ["grep", "-c", "-F"] + [arg for w in ([query.strip('"')] if kind == "phrase" else words[:1])
                                           for arg in ("-e", w)] + [ndjson]
            for r in range(rounds):
                elapsed, out = timed(["ps-search", "--db", archive, query])
                ours.append(elapsed)
                cpu.append(CPU[-1])
                if r < reference_rounds:
                    theirs.append(timed(grep)[0])
            hits.append(out.count(b"\n"))
        median, reference = statistics.median(ours), statistics.median(theirs)
        print(f"{kind:<10} {len(ours):>4} {median:>10.1f} {percentile(ours, 99):>8.1f} {statistics.median(cpu):>10.1f} "
              f"{percentile(cpu, 99):>8.1f} {statistics.median(cpu) - startup:>13.1f} "
              f"{statistics.median(hits):>6.0f}   "
              f"{reference:>21.1f} {reference / median:>16.1f}x")


if __name__ == "__main__":
    main()
