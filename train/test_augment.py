"""--augment (tcsym.py): the symmetries the binary reports, each board's
own kept when boards are read together, boards mapped like FENs mapped by
hand, the hand-written evaluation unchanged by every symmetry (what makes
--hybrid --augment sound), the side to move swapped with the colours while score and result stay,
castling records kept to castling symmetries, and validation unmapped. Run
by `make train-test` with the built binary ($TC_BIN, default ./topochess)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcdata  # noqa: E402
import tcsym  # noqa: E402
import train  # noqa: E402

BIN = os.environ.get("TC_BIN", "./topochess")


def setUpModule():
    global TMP, CHESS
    TMP = tempfile.mkdtemp(prefix="tc_augment_")
    CHESS = os.path.join(TMP, "chess.bin")
    subprocess.run([BIN, "datagen", "--variant", "chess", "--out", CHESS, "--nodes", "200", "--games", "3",
                    "--threads", "2", "--max-plies", "80", "--seed", "5"], check=True, stderr=subprocess.DEVNULL)


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


def by_name(syms):
    return {s["name"]: s for s in syms}


class SymmetryListTest(unittest.TestCase):
    def test_chess_has_the_mirror_and_the_flip(self):
        syms = tcsym.board_symmetries(BIN, "chess")
        self.assertEqual(sorted(s["name"] for s in syms),
                         sorted(["identity", "mirror-files", "flip-colours", "mirror-files flip-colours"]))
        self.assertEqual(syms[0]["name"], "identity")
        self.assertFalse(by_name(syms)["mirror-files"]["with_castling"])
        self.assertTrue(by_name(syms)["flip-colours"]["with_castling"])

    def test_each_board_read_together_keeps_its_own(self):
        groups, of = tcsym.board_groups(BIN, ["chess", "cylinder", "folding", "chess"])
        self.assertEqual(of, [0, 1, 2, 0])
        for name, g in zip(("chess", "cylinder", "folding"), groups):
            self.assertEqual([s["cells"] for s in g], [s["cells"] for s in tcsym.board_symmetries(BIN, name)])
        aug = tcsym.Augmenter(None, 64, 3, groups)
        for gi, g in enumerate(groups):
            k = aug.pick(np.zeros(3000, np.int64), np.full(3000, gi))
            lo = sum(len(x) for x in groups[:gi])
            self.assertTrue(((k >= lo) & (k < lo + len(g))).all(), f"group {gi}")
            self.assertEqual(len(set(k.tolist())), len(g), f"group {gi}: every symmetry drawn")
            self.assertEqual(aug.names[int(aug.identity[gi])], "identity")
        self.assertGreater(len(groups[1]), len(groups[0]))  # the cylinder's shifts are not lost

    def test_unknown_board_is_a_clear_error(self):
        with self.assertRaises(tcsym.SymmetryError) as e:
            tcsym.board_symmetries(BIN, "no-such-board")
        self.assertIn("no-such-board", str(e.exception))


class MappingTest(unittest.TestCase):
    # FENs mapped by hand: the mirror sends e4 to d4 and a1 to h1; the flip
    # sends White's pawn on e4 to Black's on e5, White to move to Black;
    # the cylinder's shift by 3 sends file a to d and e to h.
    START = "4k3/8/8/8/4P3/8/8/R3K3 w - - 0 1"
    HAND = {("chess", "identity"): "4k3/8/8/8/4P3/8/8/R3K3 w",
            ("chess", "mirror-files"): "3k4/8/8/8/3P4/8/8/3K3R w",
            ("chess", "flip-colours"): "r3k3/8/8/4p3/8/8/8/4K3 b",
            ("chess", "mirror-files flip-colours"): "3k3r/8/8/3p4/8/8/8/3K4 b",
            ("cylinder", "shift-files+3"): "7k/8/8/8/7P/8/8/3R3K w"}

    def test_mapped_features_equal_the_hand_mapped_fen(self):
        for (board, name), want in self.HAND.items():
            syms = tcsym.board_symmetries(BIN, board)
            aug = tcsym.Augmenter(syms, 64, 0)
            k = [s["name"] for s in syms].index(name)
            b, stm = tcdata.parse_fen(self.START, 8, 8)
            mb, mstm = aug.apply(b[None, :], np.array([stm]), np.array([k]))
            wb, wstm = tcdata.parse_fen(want, 8, 8)
            self.assertEqual(tcdata.board_fen(mb[0], 8, 8), want.split()[0], f"{board} {name}")
            self.assertEqual(int(mstm[0]), wstm, f"{board} {name}: side to move")
            for persp in (0, 1):
                np.testing.assert_array_equal(tcdata.feature_indices(mb, 64, persp)[0],
                                              tcdata.feature_indices(wb[None, :], 64, persp)[0])

    def test_castling_records_take_castling_symmetries_only(self):
        aug = tcsym.Augmenter(tcsym.board_symmetries(BIN, "chess"), 64, 1)
        k = aug.pick(np.full(2000, 9))
        self.assertTrue(aug.castling_ok[k].all())
        self.assertGreater(len(set(k.tolist())), 1)
        self.assertEqual(len(set(aug.pick(np.zeros(2000, np.int64)).tolist())), 4)


class HandEvalTest(unittest.TestCase):
    def test_hand_evaluation_is_the_same_for_every_symmetry(self):
        """--hybrid --augment adds the original record's hand evaluation to
        the net's value of the mapped board: sound only if the hand-written
        evaluation gives every mapped board the same value. Checked on
        games of two boards, by writing the mapped records to a data file
        and asking the binary (`datagen --hand-eval`)."""
        for variant in ("chess", "cylinder"):
            path = os.path.join(TMP, f"h-{variant}.bin")
            subprocess.run([BIN, "datagen", "--variant", variant, "--out", path, "--nodes", "200", "--games", "2",
                            "--threads", "2", "--max-plies", "80", "--seed", "9"], check=True,
                           stderr=subprocess.DEVNULL)
            data = tcdata.Data(path)
            base = tcdata.hand_evals(path, BIN)
            syms = tcsym.board_symmetries(BIN, variant)
            aug = tcsym.Augmenter(syms, 64, 0)
            raw = np.fromfile(path, dtype=np.uint8)
            rs, nb = tcdata.record_size(64), 32
            for k, name in enumerate(aug.names):
                plain = data.castling == 0
                board, stm = aug.apply(data.board, data.stm, np.full(len(data), k))
                recs = raw[tcdata.HEADER_SIZE:tcdata.HEADER_SIZE + len(data) * rs].reshape(len(data), rs).copy()
                recs[:, :nb] = board[:, 0::2] | (board[:, 1::2] << 4)
                recs[:, nb] = (recs[:, nb] & 0xFE) | stm
                mapped = os.path.join(TMP, f"h-{variant}-{k}.bin")
                with open(mapped, "wb") as f:
                    f.write(raw[:tcdata.HEADER_SIZE].tobytes() + recs.tobytes())
                np.testing.assert_array_equal(tcdata.hand_evals(mapped, BIN)[plain], base[plain],
                                              f"{variant} {name}")


class TrainingTest(unittest.TestCase):
    def test_batches_map_boards_and_keep_score_and_result(self):
        data = tcdata.Data(CHESS)
        aug = tcsym.Augmenter(tcsym.board_symmetries(BIN, "chess"), 64, 2)
        rows = np.arange(len(data))
        plain, mapped = train.Batches(data, rows), train.Batches(data, rows, aug)
        sel = np.arange(min(256, len(data)))
        p, m = plain.batch(sel), mapped.batch(sel)
        self.assertTrue(np.array_equal(p[3].numpy(), m[3].numpy()) and np.array_equal(p[4].numpy(), m[4].numpy()))
        self.assertFalse(np.array_equal(p[0].numpy(), m[0].numpy()))
        # the side to move keeps its own pieces (a swap swaps both), so the
        # "own" features of the mover's perspective count the same
        for i in sel[:100]:
            own = int(((data.board[i] != 0) & ((data.board[i] >> 3) == data.stm[i])).sum())
            feats = m[int(m[2][i])][i].numpy()
            self.assertEqual(int(((feats >= 0) & (feats < 6 * 64)).sum()), own)

    def test_validation_is_not_augmented(self):
        calls = []
        real = tcsym.Augmenter.apply

        def counting(self, board, stm, k):
            calls.append(len(board))
            return real(self, board, stm, k)
        tcsym.Augmenter.apply = counting
        try:
            args = train.parse_args(["--data", CHESS, "--out", os.path.join(TMP, "a.tcnn"), "--hidden", "32",
                                     "--epochs", "3", "--qat-epochs", "1", "--max-steps", "4", "--batch", "16",
                                     "--augment", "--bin", BIN])
            train.train(args)
        finally:
            tcsym.Augmenter.apply = real
        # 4 training batches of 16 per epoch, and nothing else
        self.assertEqual(calls, [16] * 12)
        self.assertTrue(os.path.getsize(os.path.join(TMP, "a.tcnn")) > 0)


if __name__ == "__main__":
    unittest.main()
