"""The loop every fuzz driver shares (see fuzz/README.md): seeds from the target's corpus in
Tests/CommandTests/FuzzCorpus/<target>/, mutants checked against the built command, and any
input that shows a problem saved to fuzz/<target>/crashers/ under a hash of its bytes.

A driver gives its mutate(rng, seed) and check(binary, input, timeout) -> problem or None, and
calls main(...). With text=True the seeds and crashers are UTF-8 text, otherwise bytes."""
import argparse, hashlib, os, random, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(target, command, mutate, check, suffix, text=False, extra_seeds=()):
    corpus = os.path.join(ROOT, "Tests/CommandTests/FuzzCorpus", target)
    crashers = os.path.join(ROOT, "fuzz", target, "crashers")
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug", command))
    parser.add_argument("--timeout", type=float, default=10)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mode, encoding = ("r", "utf-8") if text else ("rb", None)
    seeds = [open(os.path.join(corpus, name), mode, encoding=encoding).read() for name in sorted(os.listdir(corpus))]
    seeds += list(extra_seeds)
    deadline = time.time() + args.minutes * 60
    runs = found = 0
    print(f"seed {args.seed}", file=sys.stderr)
    while time.time() < deadline:
        data = mutate(rng, rng.choice(seeds))
        runs += 1
        problem = check(args.binary, data, args.timeout)
        if problem:
            found += 1
            os.makedirs(crashers, exist_ok=True)
            raw = data.encode("utf-8", "surrogatepass") if text else data
            name = hashlib.sha1(raw).hexdigest()[:16] + suffix
            with open(os.path.join(crashers, name), "wb") as out:
                out.write(raw)
            print(f"{name}: {problem}", file=sys.stderr)
    print(f"{runs} inputs, {found} problems", file=sys.stderr)
    sys.exit(1 if found else 0)
