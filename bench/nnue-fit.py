#!/usr/bin/python3
"""How well a net predicts the search, against the hand-written evaluation:
on the held-out games of a datagen file (the trainer's validation split),
the median and mean |eval - search score| of the net (integer arithmetic,
train/tcnn.py) and of `topochess uci`'s static `eval`, and the share of
positions where each has the sign of the score.

  bench/nnue-fit.py NET.tcnn DATA.bin [--count 2000] [--bin ./topochess]
  bench/nnue-fit.py --smoke        (a few positions of a tiny net, for CI)
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "train"))
import tcdata  # noqa: E402
import tcnn  # noqa: E402


def split_rows(data, share=0.1, seed=1):
    import train
    return train.split(data, share, seed)[1]


def hand_evals(binary, variant, fens):
    script = ["uci", f"setoption name UCI_Variant value {variant}"]
    for fen in fens:
        script += [f"position fen {fen}", "eval"]
    script.append("quit")
    out = subprocess.run([binary, "uci"], input="\n".join(script) + "\n", capture_output=True, text=True,
                         check=True).stdout
    evals = [int(line.split()[3]) for line in out.splitlines() if line.startswith("info string eval ")]
    if len(evals) != len(fens):
        raise SystemExit(f"nnue-fit: {len(evals)} evals for {len(fens)} positions")
    return np.array(evals)


def report(name, ev, score):
    err = np.abs(ev - score)
    sign = np.mean(np.sign(ev) == np.sign(score))
    print(f"  {name:6s} median |eval - search| {np.median(err):6.0f} cp, mean {err.mean():6.0f} cp, "
          f"same sign {sign:.2f}")


def fit(net_path, data_path, count, binary):
    data = tcdata.Data(data_path)
    net = tcnn.load(net_path, data.width, data.height)
    rows = split_rows(data)[:count]
    score = data.score[rows]
    ev_net = net.evaluate(data.board[rows], data.stm[rows])
    ev_hand = hand_evals(binary, data.name, [data.fen(i) for i in rows])
    if net.hybrid:  # the engine adds the hand-written evaluation to a hybrid net's output
        ev_net = ev_net + ev_hand
    kind = ", hybrid" if net.hybrid else ""
    print(f"{data.name}: {len(rows)} held-out positions of {len(data)} ({net_path}, H {net.hidden}{kind})")
    report("net", ev_net, score)
    report("hand", ev_hand, score)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("net", nargs="?")
    ap.add_argument("data", nargs="?")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--bin", default="./topochess")
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    if args.smoke or (os.environ.get("SMOKE") == "1" and not args.net):
        import train
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "d.bin")
            subprocess.run([args.bin, "datagen", "--variant", "cylinder", "--out", data, "--nodes", "200",
                            "--games", "4", "--max-plies", "60"], check=True, stderr=subprocess.DEVNULL)
            net = os.path.join(tmp, "n.tcnn")
            train.train(train.parse_args(["--data", data, "--out", net, "--hidden", "32", "--epochs", "1",
                                          "--qat-epochs", "1", "--max-steps", "2"]))
            fit(net, data, 20, args.bin)
        return
    if not args.net or not args.data:
        ap.error("give NET.tcnn DATA.bin, or --smoke")
    fit(args.net, args.data, args.count, args.bin)


if __name__ == "__main__":
    main()
