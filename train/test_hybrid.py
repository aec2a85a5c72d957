"""Hybrid nets in the trainer (docs/nnue-training.md): the hand-evaluation
side file is made, reused only while it matches its data file, and remade
when stale; a tiny hybrid training run exports a version 2 net with the
hybrid flag whose value in the C engine (UCI `eval` with EvalFile) is the
side file's hand-written evaluation plus the trainer's integer evaluation;
net files of version 1 still load, unknown flags are refused. Run by
`make train-test`, on data made by the built binary ($TC_BIN)."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcdata  # noqa: E402
import tcnn  # noqa: E402
import train  # noqa: E402

BIN = os.environ.get("TC_BIN", "./topochess")
TRAIN_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "train.py")


def setUpModule():
    global TMP, CHESS
    TMP = tempfile.mkdtemp(prefix="tc_hybrid_")
    CHESS = os.path.join(TMP, "chess.bin")
    subprocess.run([BIN, "datagen", "--variant", "chess", "--out", CHESS, "--nodes", "200", "--games", "3",
                    "--threads", "2", "--max-plies", "80", "--seed", "5"], check=True, stderr=subprocess.DEVNULL)


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


def uci_evals(net_path, fens):
    """(total, hand, net) per FEN from the engine's UCI `eval` with a net."""
    script = f"setoption name EvalFile value {net_path}\n" + "".join(f"position fen {f}\neval\n" for f in fens)
    out = subprocess.run([BIN, "uci"], input=script + "quit\n", capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        if line.startswith("info string eval "):
            w = line.replace("(", " ").replace(",", " ").split()
            # info string eval T (hand H + net N = T, ...
            rows.append((int(w[3]), int(w[5]), int(w[8])))
    return rows


class SideFileTest(unittest.TestCase):
    def test_made_reused_and_remade_when_stale(self):
        data = os.path.join(TMP, "side.bin")
        shutil.copy(CHESS, data)
        side = tcdata.hand_path(data)
        self.assertEqual(side, os.path.join(TMP, "side.hand"))
        first = tcdata.hand_evals(data, BIN)
        self.assertEqual(len(first), len(tcdata.Data(data)))
        made = os.path.getmtime(side)
        again = tcdata.hand_evals(data, BIN)
        self.assertTrue(np.array_equal(first, again))
        self.assertEqual(os.path.getmtime(side), made, "a matching side file was made again")
        # the data file grows by one record (a copy of the first): stale
        with open(data, "rb") as f:
            raw = f.read()
        rs = tcdata.record_size(64)
        with open(data, "ab") as f:
            f.write(raw[tcdata.HEADER_SIZE:tcdata.HEADER_SIZE + rs])
        with self.assertRaisesRegex(tcdata.StaleHand, "records"):
            tcdata.read_hand(side, data)
        grown = tcdata.hand_evals(data, BIN)
        self.assertEqual(len(grown), len(first) + 1)
        self.assertEqual(grown[-1], first[0])
        # same size, other contents: the checksum notices
        with open(data, "r+b") as f:
            f.seek(tcdata.HEADER_SIZE + 5 * rs + rs - 7)
            f.write(b"\x09")
        with self.assertRaisesRegex(tcdata.StaleHand, "crc"):
            tcdata.read_hand(side, data)
        with open(side, "wb") as f:
            f.write(b"junk")
        with self.assertRaisesRegex(tcdata.StaleHand, "not a hand-evaluation side file"):
            tcdata.read_hand(side, data)

    def test_a_failing_binary_is_reported(self):
        data = os.path.join(TMP, "missing.bin")
        with self.assertRaisesRegex(tcdata.DataError, "cannot open"):
            tcdata.hand_evals(data, BIN)


class HybridNetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.path = os.path.join(TMP, "hybrid.tcnn")
        args = train.parse_args(["--data", CHESS, "--out", cls.path, "--hidden", "32", "--epochs", "3",
                                 "--qat-epochs", "1", "--max-steps", "6", "--batch", "64", "--lr", "1e-2",
                                 "--hybrid", "--bin", BIN])
        cls.net, cls.inet = train.train(args)
        cls.data = tcdata.Data(CHESS)

    def test_flag_written_and_read(self):
        back = tcnn.load(self.path)
        self.assertTrue(back.hybrid)
        with open(self.path, "rb") as f:
            raw = f.read()
        self.assertEqual(struct.unpack_from("<2I", raw, 4)[0], 2)
        self.assertEqual(struct.unpack_from("<I", raw, 36)[0], tcnn.FLAG_HYBRID)

    def test_c_engine_adds_the_hand_evaluation(self):
        d = self.data
        hand = tcdata.hand_evals(CHESS, BIN)
        sel = list(range(0, len(d), max(1, len(d) // 25)))
        ev = self.inet.evaluate(d.board[sel], d.stm[sel])
        self.assertTrue(np.any(ev != 0), "the tiny hybrid net outputs 0 everywhere: nothing is compared")
        rows = uci_evals(self.path, [d.fen(i) for i in sel])
        self.assertEqual(len(rows), len(sel))
        for i, e, (total, h, n) in zip(sel, ev, rows):
            self.assertEqual(h, hand[i], f"record {i}: the engine's hand part")
            self.assertEqual(n, int(e), f"record {i}: the engine's net part, the trainer's integer evaluation")
            self.assertEqual(total, h + n, f"record {i}")

    def test_check_prints_both_parts(self):
        d = self.data
        out = subprocess.run([sys.executable, TRAIN_PY, "--check", self.path, "--data", CHESS, "--count", "4",
                              "--bin", BIN], check=True, capture_output=True, text=True).stdout.splitlines()
        hand = tcdata.hand_evals(CHESS, BIN)
        ev = self.inet.evaluate(d.board[:4], d.stm[:4])
        self.assertEqual(len(out), 4)
        for i, line in enumerate(out):
            self.assertEqual(line, f"{d.fen(i)}; eval {hand[i] + ev[i]} (hand {hand[i]} + net {ev[i]}); "
                                   f"score {d.score[i]}")
        fen = subprocess.run([sys.executable, TRAIN_PY, "--check", self.path, "--fen", d.fen(2), "--bin", BIN],
                             check=True, capture_output=True, text=True).stdout.strip()
        self.assertEqual(fen, f"{d.fen(2)}; eval {hand[2] + ev[2]} (hand {hand[2]} + net {ev[2]})")

    def test_version_1_and_unknown_flags(self):
        with open(self.path, "rb") as f:
            raw = bytearray(f.read())

        def seal(b):
            b[-4:] = struct.pack("<I", zlib.crc32(bytes(b[:-4])) & 0xFFFFFFFF)
            return bytes(b)
        v1 = bytearray(raw[:36] + raw[40:])
        v1[4] = 1
        pure = tcnn.from_bytes(seal(v1))
        self.assertFalse(pure.hybrid)
        self.assertTrue(np.array_equal(pure.ft_weight, self.inet.ft_weight))
        flags = bytearray(raw)
        flags[36] |= 4
        with self.assertRaisesRegex(tcnn.NetError, "unknown flags 00000005"):
            tcnn.from_bytes(seal(flags))


if __name__ == "__main__":
    unittest.main()
