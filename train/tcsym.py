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


def board_groups(binary, names, log=None):
    """The symmetries of each distinct named variant, in first-seen order,
    and for each name its group's index: data of several boards of one size
    read together (--same-size) maps each record by its own board's
    symmetries. log: where to say how many each board has."""
    order = list(dict.fromkeys(names))
    groups = []
    for name in order:
        syms = board_symmetries(binary, name)
        if log:
            print(f"train: {name}: {len(syms)} symmetr{'y' if len(syms) == 1 else 'ies'} of the rules: "
                  f"{', '.join(s['name'] for s in syms)}", file=log)
        groups.append(syms)
    return groups, [order.index(n) for n in names]


class Augmenter:
    """Maps boards by a random symmetry each (identity included). A colour
    swap swaps the side to move too; score and result are the side to
    move's view, the same player's before and after, so they stay. A
    record with castling rights only takes a symmetry that keeps castling
    (else the identity)."""

    def __init__(self, syms, cells, seed, groups=None):
        """syms: one board's symmetries; or, with groups (a list of such
        lists, one per board), syms is None and each record picks from its
        own group (pick's `group`)."""
        groups = [syms] if groups is None else groups
        flat = [s for g in groups for s in g]
        if not all(groups) or any(len(s["cells"]) != cells for s in flat):
            raise SymmetryError(f"symmetries do not fit a board of {cells} cells")
        self.names = [s["name"] for s in flat]
        self.perm = np.array([s["cells"] for s in flat], np.int64)
        self.swap = np.array([bool(s["swap_colours"]) for s in flat])
        self.castling_ok = np.array([bool(s["with_castling"]) for s in flat])
        self.start = np.cumsum([0] + [len(g) for g in groups[:-1]])
        self.count = np.array([len(g) for g in groups])
        ident = (self.perm == np.arange(cells)).all(1) & ~self.swap
        self.identity = np.empty(len(groups), np.int64)
        for i, (a, n) in enumerate(zip(self.start, self.count)):
            found = np.nonzero(ident[a:a + n])[0]
            if len(found) != 1:
                raise SymmetryError("the symmetries lack the identity")
            self.identity[i] = a + found[0]
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.perm)

    def pick(self, castling, group=None):
        """A random symmetry index per record, from the record's group
        (group: an array of group indices, default all 0); the group's
        identity for castling records whose pick does not keep castling."""
        castling = np.asarray(castling)
        g = np.zeros(len(castling), np.int64) if group is None else np.asarray(group, np.int64)
        k = self.start[g] + (self.rng.random(len(castling)) * self.count[g]).astype(np.int64)
        return np.where((castling != 0) & ~self.castling_ok[k], self.identity[g], k)

    def apply(self, board, stm, k):
        """The boards (n, cells) and sides to move (n,) mapped by symmetries k (n,)."""
        board = np.asarray(board)
        swap = self.swap[k]
        codes = np.where((board != 0) & swap[:, None], board ^ 8, board).astype(board.dtype)
        out = np.empty_like(board)
        out[np.arange(len(board))[:, None], self.perm[k]] = codes
        return out, np.asarray(stm) ^ swap.astype(np.asarray(stm).dtype)
