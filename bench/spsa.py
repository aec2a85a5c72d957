#!/usr/bin/python3
"""Tunes the search's parameters by SPSA through the match runner
(docs/search.md, "Tuning the search").

Each iteration moves every tuned parameter up or down by its step c_k at
random, plays a game pair or more between the engine set to theta + c_k d
and the engine set to theta - c_k d (`topochess match`, both sides this
binary's `uci --tune`, fixed nodes, random balanced openings), and moves
theta toward the side that scored: theta_i += r_k c_k (W - L) d_i. The
gains follow the usual schedule (alpha 0.602, gamma 0.101, A a tenth of the
iterations); each parameter's final step c_end defaults to a twentieth of
its range and r_end to 0.002, as Fishtest's SPSA tests set them.

The parameters, their defaults and ranges come from the engine itself:
the options `uci --tune` lists beyond plain `uci`'s.

  bench/spsa.py [--params A,B,...] [--iterations N] [--pairs P] [--nodes N]
                [--variant V] [--bin ./topochess] [--seed S] [--out DIR]
                [--concurrency C] [--r-end R] [--start NAME=V,...]
  bench/spsa.py --smoke     (two iterations of one pair at 200 nodes, three
                            parameters, in a scratch folder: CI's bench-smoke)

It writes DIR/spsa.log (one line an iteration) and DIR/spsa-result.txt: the
tuned values, and the option1= words that test them against the defaults
with `topochess match ... sprt=...` (bench/engine.sh sprt takes TC_OPTIONS).
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ALPHA, GAMMA = 0.602, 0.101


SPIN = re.compile(r"option name (.+?) type spin default (-?\d+) min (-?\d+) max (-?\d+)$")


def spin_options(words):
    """The spin options an engine lists: {name: (default, min, max)}."""
    out = subprocess.run(words, input="uci\nquit\n", capture_output=True, text=True, timeout=60).stdout
    return {m.group(1): tuple(int(m.group(k)) for k in (2, 3, 4))
            for m in map(SPIN.match, out.splitlines()) if m}


def tunables(binary):
    """The search's parameters: what `uci --tune` lists beyond `uci`."""
    plain = spin_options([binary, "uci"])
    return {n: v for n, v in spin_options([binary, "uci", "--tune"]).items() if n not in plain}


def play(args, plus, minus, seed):
    """One match: the + engine first. Returns (wins, losses, draws) of +."""
    eng = f"'{os.path.abspath(args.bin)}' uci --tune"
    words = [args.bin, "match", "--variant", args.variant, f"engine1={eng}", f"engine2={eng}",
             "name1=plus", "name2=minus", f"nodes={args.nodes}", f"games={2 * args.pairs}",
             f"openings={args.pairs}", "balance=50", f"seed={seed}", f"concurrency={args.concurrency}",
             "resign=3,700", "draw=40,8,10"]
    words += [f"option1={k}={v}" for k, v in plus.items()]
    words += [f"option2={k}={v}" for k, v in minus.items()]
    run = subprocess.run(words, capture_output=True, text=True, timeout=600 + 60 * args.pairs)
    m = None
    for line in run.stdout.splitlines():
        m = re.match(r"Score of plus vs minus: (\d+) - (\d+) - (\d+)", line) or m
    if run.returncode or not m:
        sys.exit(f"spsa: the match failed (exit {run.returncode}): {(run.stderr or run.stdout)[-400:]}")
    return tuple(int(m.group(k)) for k in (1, 2, 3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--params", default="", help="comma-separated names (default: every parameter)")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--pairs", type=int, default=1, help="game pairs an iteration")
    ap.add_argument("--nodes", type=int, default=4000)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--bin", default="./topochess")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--start", default="", help="NAME=VALUE,... to start from instead of the defaults")
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    smoke = args.smoke or os.environ.get("SMOKE") == "1"
    if smoke:
        args.iterations, args.pairs, args.nodes = 2, 1, 200
        args.out = tempfile.mkdtemp()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"spsa: {args.bin} is not an executable (build it with make)")
    if args.iterations < 1 or args.pairs < 1 or args.nodes < 1:
        sys.exit("spsa: --iterations, --pairs and --nodes take positive numbers")

    known = tunables(args.bin)
    if not known:
        sys.exit(f"spsa: {args.bin} lists no search parameters under 'uci --tune'")
    names = [n for n in args.params.split(",") if n] or list(known)
    if smoke and not args.params:
        names = names[:3]
    for n in names:
        if n not in known:
            sys.exit(f"spsa: no search parameter '{n}'; the engine has: {', '.join(known)}")
    theta = {n: float(known[n][0]) for n in names}
    for word in filter(None, args.start.split(",")):
        n, _, v = word.partition("=")
        if n not in theta or not re.fullmatch(r"-?\d+(\.\d+)?", v):
            sys.exit(f"spsa: --start wants NAME=NUMBER of tuned parameters, got '{word}'")
        theta[n] = float(v)

    N = args.iterations
    A = 0.1 * N
    lo = {n: known[n][1] for n in names}
    hi = {n: known[n][2] for n in names}
    c_end = {n: max(1.0, (hi[n] - lo[n]) / 20) for n in names}
    c0 = {n: c_end[n] * N ** GAMMA for n in names}
    a0 = {n: args.r_end * c_end[n] ** 2 * (A + N) ** ALPHA for n in names}
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, "spsa.log")
    rng = random.Random(args.seed)
    total = [0, 0, 0]
    t0 = time.time()
    with open(log_path, "w") as log:
        print(f"# spsa: {len(names)} parameters, {N} iterations of {args.pairs} pair(s) at {args.nodes} nodes, "
              f"{args.variant}, r_end {args.r_end}", file=log, flush=True)
        for k in range(N):
            ck = {n: c0[n] / (k + 1) ** GAMMA for n in names}
            ak = {n: a0[n] / (A + k + 1) ** ALPHA for n in names}
            delta = {n: rng.choice((-1, 1)) for n in names}
            plus = {n: min(hi[n], max(lo[n], round(theta[n] + ck[n] * delta[n]))) for n in names}
            minus = {n: min(hi[n], max(lo[n], round(theta[n] - ck[n] * delta[n]))) for n in names}
            w, l, d = play(args, plus, minus, args.seed * 100000 + k)
            for i, x in enumerate((w, l, d)):
                total[i] += x
            for n in names:
                theta[n] += ak[n] / ck[n] * (w - l) * delta[n]
                theta[n] = min(hi[n], max(lo[n], theta[n]))
            line = f"{k + 1} {w}-{l}-{d} " + " ".join(f"{n}={theta[n]:.2f}" for n in names)
            print(line, file=log, flush=True)
            if (k + 1) % 10 == 0 or k + 1 == N or smoke:
                print(f"iteration {k + 1}/{N}: games {sum(total)} ({total[0]}-{total[1]}-{total[2]}), "
                      f"{time.time() - t0:.0f} s", flush=True)
    result = os.path.join(args.out, "spsa-result.txt")
    with open(result, "w") as f:
        for n in names:
            f.write(f"{n} {round(theta[n])} (default {known[n][0]}, {theta[n]:.2f})\n")
        f.write("options: " + " ".join(f"option1={n}={round(theta[n])}" for n in names) + "\n")
    for n in names:
        print(f"{n}: {known[n][0]} -> {theta[n]:.2f}")
    print(f"spsa: {N} iterations, {sum(total)} games; log {log_path}, result {result}")
    if smoke:
        shutil.rmtree(args.out)


if __name__ == "__main__":
    main()
