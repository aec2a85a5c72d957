"""Symmetry augmentation: the symmetries of a board's rules, as the topochess
binary finds them from its own move tables (`topochess topology --variant
NAME --symmetries --json`, docs/library.md), and the mapping of training
boards by a random one of them (docs/nnue-training.md)."""
import json
import subprocess

import numpy as np


class SymmetryError(Exception):
    """The binary could not say a board's symmetries."""


def board_symmetries(binary, name):
    """The symmetries of one variant: a list of dicts with name, cells (the
    permutation, cell -> mapped cell), swap_colours, with_castling."""
    try:
        out = subprocess.run([binary, "topology", "--variant", name, "--symmetries", "--json"],
                             capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise SymmetryError(f"--bin {binary}: {e.strerror}") from e
    if out.returncode != 0:
        raise SymmetryError(f"{binary} topology --variant {name} --symmetries: {out.stderr.strip()}")
    try:
        return json.loads(out.stdout)["symmetries"]
    except (ValueError, KeyError) as e:
        raise SymmetryError(f"{binary} topology --symmetries --json: unreadable answer ({e})") from e


def common_symmetries(binary, names, log=None):
    """The symmetries that hold for every named variant (the intersection,
    for data of several boards of one size read together), identity first.
    A symmetry is kept with castling only if it keeps castling on every
    board. log: where to say how many each board has."""
    common = None
    for name in dict.fromkeys(names):
        syms = board_symmetries(binary, name)
        if log:
            print(f"train: {name}: {len(syms)} symmetr{'y' if len(syms) == 1 else 'ies'} of the rules: "
                  f"{', '.join(s['name'] for s in syms)}", file=log)
        keyed = {(tuple(s["cells"]), bool(s["swap_colours"])): s for s in syms}
        if common is None:
            common = keyed
        else:
            common = {k: dict(s, with_castling=s["with_castling"] and keyed[k]["with_castling"])
                      for k, s in common.items() if k in keyed}
    syms = list(common.values())
    if log and len(set(names)) > 1:
        print(f"train: {len(syms)} symmetr{'y' if len(syms) == 1 else 'ies'} common to "
              f"{', '.join(dict.fromkeys(names))}: {', '.join(s['name'] for s in syms)}", file=log)
    return syms


class Augmenter:
    """Maps boards by a random symmetry each (identity included). A colour
    swap swaps the side to move too; score and result are the side to
    move's view, the same player's before and after, so they stay. A
    record with castling rights only takes a symmetry that keeps castling
    (else the identity)."""

    def __init__(self, syms, cells, seed):
        if not syms or any(len(s["cells"]) != cells for s in syms):
            raise SymmetryError(f"symmetries do not fit a board of {cells} cells")
        self.names = [s["name"] for s in syms]
        self.perm = np.array([s["cells"] for s in syms], np.int64)
        self.swap = np.array([bool(s["swap_colours"]) for s in syms])
        self.castling_ok = np.array([bool(s["with_castling"]) for s in syms])
        ident = np.nonzero((self.perm == np.arange(cells)).all(1) & ~self.swap)[0]
        if len(ident) != 1:
            raise SymmetryError("the symmetries lack the identity")
        self.identity = int(ident[0])
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.perm)

    def pick(self, castling):
        """A random symmetry index per record (identity for castling records
        whose pick does not keep castling)."""
        k = self.rng.integers(0, len(self.perm), len(castling))
        return np.where((np.asarray(castling) != 0) & ~self.castling_ok[k], self.identity, k)

    def apply(self, board, stm, k):
        """The boards (n, cells) and sides to move (n,) mapped by symmetries k (n,)."""
        board = np.asarray(board)
        swap = self.swap[k]
        codes = np.where((board != 0) & swap[:, None], board ^ 8, board).astype(board.dtype)
        out = np.empty_like(board)
        out[np.arange(len(board))[:, None], self.perm[k]] = codes
        return out, np.asarray(stm) ^ swap.astype(np.asarray(stm).dtype)
