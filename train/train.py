#!/usr/bin/python3
"""Trains a net for one board from `topochess datagen` files and exports it
as a `.tcnn` file (docs/nnue-format.md, docs/nnue.md); or, with --check,
evaluates positions with an exported net in exact integer arithmetic.

  train/train.py --data A.bin [B.bin ...] --out NET.tcnn [--hidden 128] [--epochs 20] ...
  train/train.py --check NET.tcnn --data A.bin [--count 100]
  train/train.py --check NET.tcnn --fen FEN [--fen FEN ...]
  train/train.py --hybrid [--bin ./topochess] --data A.bin ... --out NET.tcnn   (a hybrid net)
"""
import argparse
import os
import subprocess
import sys
import time
import zlib

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcdata  # noqa: E402
import tcnn  # noqa: E402
import tcsym  # noqa: E402


def fake_quant(x, s):
    """round(x * s) / s forward, identity backward (straight through)."""
    return x + (torch.round(x * s) / s - x).detach()


def fake_floor(x, s):
    """floor(x * s) / s forward, identity backward. In the integer net x * s
    is a multiple of 1/64: half a step is added so that a value that lands
    a rounding error below a whole number still floors like the integer."""
    return x + (torch.floor(x * s + 1 / 128) / s - x).detach()


class Net(nn.Module):
    """The float twin of the integer net: two feature transformers (one per
    perspective), then 2H -> L1 -> L2 -> 1 with clamp(0, 1) activations.
    With quant=True the forward pass rounds weights and activations the way
    the integer net does, so that training sees the quantisation error."""

    def __init__(self, cells, hidden=128, l1=32, l2=32):
        super().__init__()
        self.cells, self.hidden = cells, hidden
        nin = 12 * cells
        # a shared row per piece (colour and type, any cell), added to every
        # cell's row: material is learnt from every position at once, which
        # small data sets need; merged into the cell rows on export. The
        # cell rows start at 0, so that a cell the data never shows keeps
        # the piece's shared value.
        self.ft_weight = nn.Parameter(torch.zeros(2, nin, hidden))
        self.ft_factor = nn.Parameter(torch.empty(2, 12, hidden).uniform_(-1, 1) / np.sqrt(32))
        self.ft_bias = nn.Parameter(torch.full((2, hidden), 0.1))
        self.l1 = nn.Linear(2 * hidden, l1)
        self.l2 = nn.Linear(l1, l2)
        self.out = nn.Linear(l2, 1)

    def load_int(self, inet):
        """Starts from an exported net (its integers over their scales), the
        shared piece rows at 0: for fine-tuning a net on one board's data."""
        if (inet.cells, inet.hidden, inet.l1, inet.l2) != (self.cells, self.hidden, self.l1.out_features,
                                                          self.l2.out_features):
            raise tcnn.NetError(f"--init net is {inet.width}x{inet.height} H {inet.hidden} L1 {inet.l1} "
                                f"L2 {inet.l2}: not the shape asked for")
        with torch.no_grad():
            self.ft_weight.copy_(torch.as_tensor(inet.ft_weight / tcnn.FT_SCALE))
            self.ft_factor.zero_()
            self.ft_bias.copy_(torch.as_tensor(inet.ft_bias / tcnn.FT_SCALE))
            for layer, w, b in ((self.l1, inet.l1_weight, inet.l1_bias), (self.l2, inet.l2_weight, inet.l2_bias),
                                (self.out, inet.out_weight.reshape(1, -1), np.array([inet.out_bias]))):
                layer.weight.copy_(torch.as_tensor(w / tcnn.W_SCALE))
                layer.bias.copy_(torch.as_tensor(b / tcnn.B_SCALE))

    def merged_ft(self):
        """The feature transformer's rows as the file holds them."""
        rows = self.ft_weight + self.ft_factor.repeat_interleave(self.cells, dim=1)
        return torch.clamp(rows, -tcnn.FT_RANGE, tcnn.FT_RANGE)

    def forward(self, iw, ib, stm, quant=False):
        """iw, ib: each perspective's feature indices (B, cells), -1 empty."""
        fw, fb = self.merged_ft(), self.ft_bias
        lw = [self.l1.weight, self.l2.weight, self.out.weight]
        lb = [self.l1.bias, self.l2.bias, self.out.bias]
        if quant:
            fw, fb = fake_quant(fw, tcnn.FT_SCALE), fake_quant(fb, tcnn.FT_SCALE)
            lw = [fake_quant(w, tcnn.W_SCALE) for w in lw]
            lb = [fake_quant(b, tcnn.B_SCALE) for b in lb]
        acc_w = ft_sum(iw, fw[0]) + fb[0]
        acc_b = ft_sum(ib, fw[1]) + fb[1]
        black = stm.unsqueeze(1) == 1
        us = torch.where(black, acc_b, acc_w)
        them = torch.where(black, acc_w, acc_b)
        a = torch.clamp(torch.cat([us, them], 1), 0, 1)
        for w, b in zip(lw[:2], lb[:2]):
            z = a @ w.t() + b
            if quant:
                z = fake_floor(z, 127)
            a = torch.clamp(z, 0, 1)
        return (a @ lw[2].t() + lb[2]).squeeze(1)

    def clip(self):
        with torch.no_grad():
            self.ft_weight.clamp_(-tcnn.FT_RANGE, tcnn.FT_RANGE)
            self.ft_factor.clamp_(-tcnn.FT_RANGE, tcnn.FT_RANGE)
            self.ft_bias.clamp_(-tcnn.FT_RANGE, tcnn.FT_RANGE)
            for layer in (self.l1, self.l2, self.out):
                layer.weight.clamp_(-tcnn.W_RANGE, tcnn.W_RANGE)

    def export(self, width, height, scale, name):
        """The integer net (round(float * scale) of docs/nnue-format.md)."""
        def q(t, s, dtype):
            info = np.iinfo(dtype)
            return np.clip(np.round(t.detach().double().numpy() * s), info.min, info.max).astype(dtype)
        return tcnn.IntNet(width, height, self.hidden, self.l1.out_features, self.l2.out_features, scale, name,
                           q(self.ft_bias, tcnn.FT_SCALE, np.int16), q(self.merged_ft(), tcnn.FT_SCALE, np.int16),
                           q(self.l1.bias, tcnn.B_SCALE, np.int32), q(self.l1.weight, tcnn.W_SCALE, np.int8),
                           q(self.l2.bias, tcnn.B_SCALE, np.int32), q(self.l2.weight, tcnn.W_SCALE, np.int8),
                           int(q(self.out.bias, tcnn.B_SCALE, np.int32)[0]),
                           q(self.out.weight, tcnn.W_SCALE, np.int8).reshape(-1))


def ft_sum(idx, rows):
    """The sums of the feature rows (nin, H) at idx (B, cells), -1 adding
    nothing: the accumulator, from the few features a board has on (a bag
    per board), never a dense (B, nin) input."""
    table = torch.cat([rows, rows.new_zeros(1, rows.shape[1])])
    idx = torch.as_tensor(idx, dtype=torch.int64)
    return nn.functional.embedding_bag(torch.where(idx < 0, torch.full_like(idx, rows.shape[0]), idx), table,
                                       mode="sum")


class Batches:
    """A data set's rows, ready to cut into batches. Boards stay one byte a
    cell (a million 8x14 positions are 112 MB); the feature indices are made
    per batch. With an augmenter (--augment) each batch's boards are mapped
    by random symmetries of the rules (tcsym.py)."""

    def __init__(self, data, rows, augment=None):
        self.cells = data.cells
        self.board = np.ascontiguousarray(data.board[rows])
        self.stm = torch.as_tensor(data.stm[rows])
        self.augment = augment
        self.castling = data.castling[rows] if augment else None
        # each row's board (its group of symmetries), 0 when one board is read
        group = getattr(data, "group", None)
        self.group = None if not augment else \
            np.zeros(len(rows), np.int64) if group is None else group[data.file[rows]]
        self.score = torch.as_tensor(data.score[rows], dtype=torch.int16)
        self.result = torch.as_tensor(data.result[rows], dtype=torch.int8)
        self.n = len(rows)
        # hybrid nets: the hand-written evaluation of each row (side file)
        hand = getattr(data, "hand", None)
        self.hand = None if hand is None else torch.as_tensor(hand[rows], dtype=torch.float32)

    def hand_of(self, sel):
        """The rows' hand-written evaluations (hybrid training), else None."""
        return None if self.hand is None else self.hand[torch.as_tensor(sel, dtype=torch.int64)]

    def batch(self, sel):
        b, stm = self.board[sel], self.stm[sel]
        if self.augment:
            b, stm = self.augment.apply(b, stm.numpy(), self.augment.pick(self.castling[sel], self.group[sel]))
            stm = torch.as_tensor(stm)
        return (torch.as_tensor(tcdata.feature_indices(b, self.cells, 0)),
                torch.as_tensor(tcdata.feature_indices(b, self.cells, 1)), stm,
                self.score[sel].float(), self.result[sel].float())


def loss_fn(y, score, result, args, hand=None):
    """Squared error of win probabilities: the net's sigmoid(y * scale / K)
    (a hybrid net's sigmoid((hand + y * scale) / K)) against
    lambda * sigmoid(score / K) + (1 - lambda) * (result + 1) / 2."""
    p = torch.sigmoid((y * args.scale if hand is None else hand + y * args.scale) / args.k)
    target = args.lam * torch.sigmoid(score / args.k) + (1 - args.lam) * (result + 1) / 2
    return ((p - target) ** 2).mean()


def evaluate_loss(net, b, args, quant):
    net.eval()
    total = 0.0
    with torch.no_grad():
        for i in range(0, b.n, 4096):
            sel = np.arange(i, min(b.n, i + 4096))
            xw, xb, stm, score, result = b.batch(sel)
            total += float(loss_fn(net(xw, xb, stm, quant), score, result, args, b.hand_of(sel))) * len(sel)
    net.train()
    return total / max(1, b.n)


def split(data, share, seed):
    """Validation rows: whole games, about `share` of them, chosen by the
    game's index and its board's name, so that a board's held-out games
    are the same whatever other files are read with it."""
    board = np.array([zlib.crc32(n.encode()) for n in data.names], np.uint64)[data.file]
    with np.errstate(over="ignore"):
        h = (data.game.astype(np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        h ^= (board + np.uint64(seed)) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
    val = (h >> np.uint64(40)) % np.uint64(1000) < np.uint64(int(share * 1000))
    return np.nonzero(~val)[0], np.nonzero(val)[0]


def known_nets(args):
    """CRC -> path of the nets the trainer can name: --scored-by, --init and
    every .tcnn under nets/ and beside --out."""
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [p for p in (args.scored_by or []) + [args.init] if p and p != "hand"]
    for root, _, files in os.walk(os.path.join(here, "..", "nets")):
        paths += [os.path.join(root, f) for f in sorted(files) if f.endswith(".tcnn")]
    out_dir = os.path.dirname(os.path.abspath(args.out))
    paths += [os.path.join(out_dir, f) for f in sorted(os.listdir(out_dir)) if f.endswith(".tcnn")]
    nets = {}
    for p in paths:
        try:
            nets.setdefault(tcnn.file_crc(p), os.path.relpath(p))
        except OSError as e:
            if p in (args.scored_by or []):
                raise tcnn.NetError(f"--scored-by {p}: {e.strerror}") from e
    return nets


def report_scorers(data, args):
    """Says which evaluation scored each file (the header's net CRC, named
    by a net file when one has it); with --scored-by, refuses data that
    another evaluation scored."""
    nets = known_nets(args)
    want = None
    if args.scored_by:
        want = {None if s == "hand" else tcnn.file_crc(s) for s in args.scored_by}
    for path, h in zip(args.data, data.headers):
        crc = h["net_crc"]
        named = f" ({nets[crc]})" if crc in nets else " (no net file here has it)" if crc is not None else ""
        print(f"train: {path}: version {h['version']}, scored by {tcdata.scorer_text(h)}{named}", file=sys.stderr)
        if want is not None and crc not in want:
            raise tcdata.DataError(f"{path} was scored by {tcdata.scorer_text(h)}{named}, not by "
                                   f"{' or '.join(args.scored_by)} (--scored-by)")


def train(args):
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    data = tcdata.Data(args.data, same_size=args.same_size)
    if len(data) == 0:
        sys.exit(f"train: no positions in {', '.join(args.data)}")
    report_scorers(data, args)
    if args.hybrid:
        data.hand = np.concatenate([tcdata.hand_evals(p, args.bin, sys.stderr) for p in args.data])
    tr_rows, va_rows = split(data, args.val_share, args.seed)
    if len(va_rows) == 0 or len(tr_rows) == 0:
        tr_rows = va_rows = np.arange(len(data))
    aug = None
    if args.augment:
        groups, data.group = tcsym.board_groups(args.bin, data.names, sys.stderr)
        data.group = np.array(data.group, np.int64)
        aug = tcsym.Augmenter(None, data.cells, args.seed, groups)
        print(f"train: --augment: each training position mapped by one of its board's symmetries "
              f"({', '.join(str(len(g)) for g in groups)}; validation unmapped)", file=sys.stderr)
    tr, va = Batches(data, tr_rows, aug), Batches(data, va_rows)
    net = Net(data.cells, args.hidden, args.l1, args.l2)
    if args.init:
        net.load_int(tcnn.load(args.init, data.width, data.height))
    elif args.hybrid:
        # a hybrid net starts at output 0: the hand-written evaluation alone
        with torch.no_grad():
            net.out.weight.zero_()
            net.out.bias.zero_()
    # weight decay only on the per-cell rows: what the data does not show
    # about a cell stays the piece's shared value
    others = [p for n, p in net.named_parameters() if n != "ft_weight"]
    opt = torch.optim.AdamW([{"params": [net.ft_weight], "weight_decay": args.wd},
                             {"params": others, "weight_decay": 0.0}], lr=args.lr)
    qat_from = args.epochs - args.qat_epochs
    log = sys.stderr
    print(f"train: {data.name} {data.width}x{data.height}: {len(data)} positions ({tr.n} train, {va.n} "
          f"validation), H {args.hidden}, L1 {args.l1}, L2 {args.l2}, {args.epochs} epochs", file=log)
    if args.hybrid:
        print(f"train: hybrid: validation loss at the start {evaluate_loss(net, va, args, False):.5f}"
              f"{'' if args.init else ' (output 0: the hand-written evaluation alone)'}", file=log)
    best, best_state = None, None
    for epoch in range(args.epochs):
        quant = epoch >= qat_from
        lr = args.lr * (args.lr_drop if epoch >= args.epochs * 0.7 else 1.0)
        for g in opt.param_groups:
            g["lr"] = lr
        order = rng.permutation(tr.n)
        steps = 0
        for i in range(0, tr.n, args.batch):
            if args.max_steps and steps >= args.max_steps:
                break
            sel = order[i:i + args.batch]
            xw, xb, stm, score, result = tr.batch(sel)
            loss = loss_fn(net(xw, xb, stm, quant), score, result, args, tr.hand_of(sel))
            opt.zero_grad()
            loss.backward()
            opt.step()
            net.clip()
            steps += 1
        vl = evaluate_loss(net, va, args, quant)
        # the best quantised epoch is kept (or the best float one before them)
        if best is None or vl < best or (quant and epoch == qat_from):
            best, best_epoch = vl, epoch + 1
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
        print(f"train: epoch {epoch + 1}/{args.epochs} {'qat ' if quant else ''}lr {lr:.2g} "
              f"validation loss {vl:.5f} ({time.time() - t0:.0f} s)", file=log)
    net.load_state_dict(best_state)
    print(f"train: kept epoch {best_epoch} (validation loss {best:.5f})", file=log)
    name = args.name or data.name
    inet = net.export(data.width, data.height, args.scale, name)
    inet.hybrid = args.hybrid
    inet.save(args.out)
    back = tcnn.load(args.out, data.width, data.height)
    sel = va_rows[:2000]
    ev = back.evaluate(data.board[sel], data.stm[sel])
    with torch.no_grad():
        b = Batches(data, sel)
        xw, xb, stm, score, result = b.batch(np.arange(len(sel)))
        net.double()
        fq = net(xw, xb, stm, True).numpy() * args.scale
        ff = net(xw, xb, stm, False).numpy() * args.scale
        net.float()
    hand_note = ""
    if args.hybrid:
        hand = data.hand[sel]
        hand_note = f" (the hand-written evaluation alone: {np.median(np.abs(hand - data.score[sel])):.0f} cp)"
        ev, fq, ff = ev + hand, fq + hand, ff + hand
    err = np.abs(ev - data.score[sel])
    print(f"train: wrote {args.out} ({os.path.getsize(args.out)} bytes) in {time.time() - t0:.0f} s; "
          f"validation: |int - search| median {np.median(err):.0f} cp{hand_note}, |int - float| mean "
          f"{np.abs(ev - ff).mean():.1f} cp, max |int - quantised float| {np.abs(ev - fq).max():.2f} cp",
          file=log)
    return net, inet


def uci_hand_evals(binary, variant, fens):
    """The hand-written static evaluations of FENs, from the binary's UCI
    `eval` with EvalFile <none>."""
    script = "setoption name EvalFile value <none>\n"
    if variant != "chess":
        script += f"setoption name UCI_Variant value {variant}\n"
    script += "".join(f"position fen {f}\neval\n" for f in fens) + "quit\n"
    r = subprocess.run([binary, "uci"], input=script, capture_output=True, text=True)
    vals = [int(line.split()[3]) for line in r.stdout.splitlines() if line.startswith("info string eval ")]
    if len(vals) != len(fens):
        errs = [line for line in r.stdout.splitlines() if "error" in line]
        raise ValueError(f"{binary} uci: {len(vals)} evaluations for {len(fens)} positions: {' '.join(errs)}")
    return np.array(vals, np.int64)


def hybrid_text(net, hand, e):
    """A hybrid net's value and its parts, as the engine's UCI `eval` says."""
    return f"eval {int(hand + e)} (hand {int(hand)} + net {int(e)})" if net.hybrid else f"eval {int(e)}"


def check(args):
    net = tcnn.load(args.check)
    if args.fen:
        boards, stms = zip(*(tcdata.parse_fen(f, net.width, net.height) for f in args.fen))
        ev = net.evaluate(np.array(boards), np.array(stms))
        hand = uci_hand_evals(args.bin, args.variant or net.name, args.fen) if net.hybrid else np.zeros_like(ev)
        for fen, h, e in zip(args.fen, hand, ev):
            print(f"{fen}; {hybrid_text(net, h, e)}")
        return
    data = tcdata.Data(args.data)
    if (data.width, data.height) != (net.width, net.height):
        sys.exit(f"train: {args.check} is for {net.width}x{net.height}, the data is {data.width}x{data.height}")
    n = min(len(data), args.count)
    ev = net.evaluate(data.board[:n], data.stm[:n])
    hand = np.concatenate([tcdata.hand_evals(p, args.bin, sys.stderr) for p in args.data])[:n] if net.hybrid \
        else np.zeros_like(ev)
    for i in range(n):
        print(f"{data.fen(i)}; {hybrid_text(net, hand[i], ev[i])}; score {int(data.score[i])}")


def parse_args(argv):
    ap = argparse.ArgumentParser(description="Train a topochess net, or check one (docs/nnue.md).")
    ap.add_argument("--data", nargs="+", default=[], help="datagen files of one board")
    ap.add_argument("--out", help="the .tcnn file to write")
    ap.add_argument("--check", metavar="NET", help="evaluate positions with this net instead of training")
    ap.add_argument("--fen", action="append", help="with --check: a position to evaluate (repeatable)")
    ap.add_argument("--count", type=int, default=100, help="with --check --data: positions to evaluate")
    ap.add_argument("--name", help="the net's name (default: the first data file's board)")
    ap.add_argument("--init", metavar="NET", help="start from this exported net (fine-tuning)")
    ap.add_argument("--scored-by", metavar="NET", action="append",
                    help="refuse data not scored by this net ('hand': the hand-written evaluation); repeatable")
    ap.add_argument("--hybrid", action="store_true",
                    help="train a hybrid net: its output is added to the hand-written evaluation")
    ap.add_argument("--bin", default="./topochess",
                    help="the topochess binary: hand-written evaluations (--hybrid, --check), symmetries (--augment)")
    ap.add_argument("--variant", help="with --check --fen of a hybrid net: the variant (default: the net's name)")
    ap.add_argument("--same-size", action="store_true",
                    help="take data of other boards of the same size too (more positions for small data sets)")
    ap.add_argument("--hidden", type=int, default=128, help="H, the feature transformer's width")
    ap.add_argument("--l1", type=int, default=32)
    ap.add_argument("--l2", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--qat-epochs", type=int, default=4, help="last epochs trained with quantisation")
    ap.add_argument("--max-steps", type=int, default=0, help="batches per epoch at most (0: all)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--wd", type=float, default=1.0, help="weight decay of the per-cell feature rows")
    ap.add_argument("--lr-drop", type=float, default=0.3, help="learning rate factor for the last 30%%")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.7, help="weight of the score against the result")
    ap.add_argument("--k", type=float, default=400, help="centipawns per unit of the win-probability sigmoid")
    ap.add_argument("--scale", type=int, default=400, help="centipawns per output unit, written in the net")
    ap.add_argument("--val-share", type=float, default=0.1, help="share of games kept for validation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--augment", action="store_true",
                    help="map each training position by a random symmetry of the rules (asks --bin)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    if args.check:
        if bool(args.fen) == bool(args.data):
            ap.error("--check needs either --data FILE or --fen FEN")
        return args
    if not args.data or not args.out:
        ap.error("training needs --data FILE... and --out NET.tcnn")
    if args.hidden % 32 or not 32 <= args.hidden <= 1024:
        ap.error(f"--hidden {args.hidden}: the format takes multiples of 32 from 32 to 1024")
    for label, v in (("--l1", args.l1), ("--l2", args.l2)):
        if v not in (32, 64):
            ap.error(f"{label} {v}: the format takes 32 or 64")
    if not 0 <= args.lam <= 1:
        ap.error("--lambda is from 0 to 1")
    if not 0 <= args.qat_epochs <= args.epochs or args.epochs < 1:
        ap.error("--epochs must be at least 1 and --qat-epochs at most --epochs")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.check:
            check(args)
        else:
            train(args)
    except (tcdata.DataError, tcnn.NetError, tcsym.SymmetryError, OSError, ValueError) as e:
        sys.exit(f"train: {e}")


if __name__ == "__main__":
    main()
