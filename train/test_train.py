"""The trainer's tests: the numpy reader against the C converter, the input
features, a tiny training run, the net file round trip and its refusals,
and the integer evaluation against the float model and against a plain
loop written from docs/nnue-format.md. Run by `make train-test`; the data
comes from the built binary ($TC_BIN, default ./topochess)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcdata  # noqa: E402
import tcnn  # noqa: E402
import train  # noqa: E402

BIN = os.environ.get("TC_BIN", "./topochess")
TRAIN_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "train.py")


def setUpModule():
    global TMP, TORUS, CHESS
    TMP = tempfile.mkdtemp(prefix="tc_train_")
    TORUS = os.path.join(TMP, "torus.bin")
    CHESS = os.path.join(TMP, "chess.bin")
    # scored by the hand-written evaluation (--eval-file <none>, not the
    # board's built-in net): the cases below tell hand-scored data from
    # net-scored data
    for variant, path in (("torus", TORUS), ("chess", CHESS)):
        subprocess.run([BIN, "datagen", "--variant", variant, "--out", path, "--nodes", "200", "--games", "3",
                        "--threads", "2", "--max-plies", "80", "--seed", "3", "--eval-file", "<none>"], check=True,
                       stderr=subprocess.DEVNULL)


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


def plain_eval(net, board, stm):
    """docs/nnue-format.md, line by line, one position, Python integers."""
    n = net.cells
    acc = []
    for p in range(2):
        a = [int(v) for v in net.ft_bias[p]]
        for s in range(n):
            code = int(board[s])
            if code == 0:
                continue
            c, t = code >> 3, (code & 7) - 1
            f = ((0 if c == p else 6) + t) * n + s
            for j in range(net.hidden):
                a[j] += int(net.ft_weight[p][f][j])
        acc.append(a)
    a0 = [min(max(v, 0), 127) for v in acc[stm] + acc[1 - stm]]

    def layer(bias, weight, x, nout):
        out = []
        for i in range(nout):
            z = int(bias[i]) + sum(int(weight[i][j]) * x[j] for j in range(len(x)))
            out.append(min(max(z >> 6, 0), 127))
        return out
    a1 = layer(net.l1_bias, net.l1_weight, a0, net.l1)
    a2 = layer(net.l2_bias, net.l2_weight, a1, net.l2)
    out = int(net.out_bias) + sum(int(net.out_weight[i]) * a2[i] for i in range(net.l2))
    num = out * net.scale
    q = abs(num) // (127 * 64)
    return q if num >= 0 else -q


def train_tiny(data_path, out_path, extra=()):
    args = train.parse_args(["--data", data_path, "--out", out_path, "--hidden", "32", "--epochs", "3",
                             "--qat-epochs", "1", "--max-steps", "4", "--batch", "64", "--lr", "3e-3",
                             *extra])
    return train.train(args)


class ReaderTest(unittest.TestCase):
    def test_reader_matches_the_c_converter(self):
        d = tcdata.Data(TORUS)
        self.assertEqual((d.width, d.height, d.name, d.torn), (8, 14, "torus", 0))
        self.assertGreater(len(d), 20)
        text = subprocess.run([BIN, "datagen", "--to-text", TORUS], check=True, capture_output=True,
                              text=True).stdout.splitlines()
        self.assertTrue(text[0].startswith("# torus 8x14"))
        lines = text[1:]
        self.assertEqual(len(lines), len(d))
        for i, line in enumerate(lines):
            fen, score, result, ply, game = [f.strip() for f in line.split(";")]
            self.assertEqual(fen, d.fen(i), f"record {i}")
            self.assertEqual(score, f"score {d.score[i]}")
            white = d.result[i] if d.stm[i] == 0 else -d.result[i]
            self.assertEqual(result, "result " + {1: "1-0", 0: "1/2-1/2", -1: "0-1"}[int(white)])
            self.assertEqual((ply, game), (f"ply {d.ply[i]}", f"game {d.game[i]}"))

    def test_header_scorer_as_the_c_converter_says(self):
        h = tcdata.Data(TORUS).headers[0]
        self.assertEqual(h["version"], 2)
        first = subprocess.run([BIN, "datagen", "--to-text", TORUS], check=True, capture_output=True,
                               text=True).stdout.splitlines()[0]
        self.assertIn(f"scored by {tcdata.scorer_text(h)}:", first)

    def test_version_1_file_still_read(self):
        with open(TORUS, "rb") as f:
            raw = bytearray(f.read())
        raw[4] = 1  # what an older binary wrote: no scorer field
        raw[112:128] = bytes(16)
        old = os.path.join(TMP, "v1.bin")
        with open(old, "wb") as f:
            f.write(raw)
        d, new = tcdata.Data(old), tcdata.Data(TORUS)
        self.assertEqual((d.headers[0]["version"], d.headers[0]["net_crc"]), (1, None))
        self.assertTrue(np.array_equal(d.board, new.board) and np.array_equal(d.score, new.score))
        raw[4] = 3
        with open(old, "wb") as f:
            f.write(raw)
        with self.assertRaisesRegex(tcdata.DataError, "version 3"):
            tcdata.Data(old)

    def test_torn_record_and_foreign_files(self):
        with open(TORUS, "rb") as f:
            raw = f.read()
        rs = tcdata.record_size(112)
        cut = os.path.join(TMP, "cut.bin")
        with open(cut, "wb") as f:
            f.write(raw[:-5])
        d = tcdata.Data(cut)
        self.assertEqual((len(d), d.torn), ((len(raw) - 128) // rs - 1, rs - 5))
        with open(cut, "wb") as f:
            f.write(b"XXXX" + raw[4:])
        with self.assertRaisesRegex(tcdata.DataError, "not a datagen file"):
            tcdata.Data(cut)
        with self.assertRaisesRegex(tcdata.DataError, "does not go with"):
            tcdata.Data([TORUS, CHESS])

    def test_feature_indices(self):
        board, stm = tcdata.parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8, 8)
        self.assertEqual(stm, 0)
        white, black = (set(tcdata.feature_indices(board[None], 64, p)[0]) - {-1} for p in (0, 1))
        self.assertEqual((len(white), len(black)), (32, 32))
        # White knight b1 (cell 1): own piece for White, enemy piece for Black
        self.assertIn((0 + 1) * 64 + 1, white)
        self.assertIn((6 + 1) * 64 + 1, black)
        # Black king e8 (cell 60)
        self.assertIn((6 + 5) * 64 + 60, white)
        self.assertIn((0 + 5) * 64 + 60, black)
        # Black pawn a7 (cell 48)
        self.assertIn((6 + 0) * 64 + 48, white)
        self.assertIn((0 + 0) * 64 + 48, black)


class NetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.path = os.path.join(TMP, "tiny.tcnn")
        cls.net, cls.inet = train_tiny(TORUS, cls.path)
        cls.data = tcdata.Data(TORUS)

    def test_export_round_trip(self):
        back = tcnn.load(self.path, 8, 14)
        size = 40 + len("torus") + 2 * (2 * 32 + 2 * 12 * 112 * 32) + 4 * 32 + 32 * 64 + 4 * 32 + 32 * 32 + 4 + 32 + 4
        self.assertEqual(os.path.getsize(self.path), size)
        for name in ("ft_bias", "ft_weight", "l1_bias", "l1_weight", "l2_bias", "l2_weight", "out_weight"):
            self.assertTrue(np.array_equal(getattr(back, name), getattr(self.inet, name)), name)
        self.assertEqual(back.out_bias, self.inet.out_bias)
        self.assertEqual((back.name, back.scale, back.hidden), ("torus", 400, 32))
        # the weights are within the format's ranges
        self.assertLessEqual(np.abs(back.ft_weight).max(), 254)
        self.assertLessEqual(np.abs(back.l1_weight.astype(int)).max(), 127)

    def test_data_scored_by_a_net(self):
        """datagen --eval-file writes the net's CRC; the trainer names the
        net and, with --scored-by, refuses data another evaluation scored."""
        scored = os.path.join(TMP, "scored.bin")
        subprocess.run([BIN, "datagen", "--variant", "torus", "--out", scored, "--nodes", "100", "--games", "2",
                        "--threads", "1", "--max-plies", "40", "--eval-file", self.path], check=True,
                       stderr=subprocess.DEVNULL)
        h = tcdata.Data(scored).headers[0]
        self.assertEqual(h["net_crc"], tcnn.file_crc(self.path))
        out = os.path.join(TMP, "gen2.tcnn")
        run = [sys.executable, TRAIN_PY, "--data", scored, "--out", out, "--hidden", "32", "--epochs", "1",
               "--qat-epochs", "0", "--max-steps", "2"]
        ok = subprocess.run(run + ["--scored-by", self.path], capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertIn(f"scored by net {h['net_crc']:08x} ({os.path.relpath(self.path)})", ok.stderr)
        bad = subprocess.run(run + ["--scored-by", "hand"], capture_output=True, text=True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn(f"was scored by net {h['net_crc']:08x}", bad.stderr)
        self.assertIn("not by hand", bad.stderr)
        hand = subprocess.run(run[:3] + [TORUS] + run[4:] + ["--scored-by", self.path], capture_output=True,
                              text=True)
        self.assertIn("was scored by the hand-written evaluation", hand.stderr)

    def test_init_from_an_exported_net(self):
        net = train.Net(112, 32)
        net.load_int(tcnn.load(self.path))
        again = net.export(8, 14, 400, "torus")
        self.assertEqual(again.to_bytes(), self.inet.to_bytes())
        with self.assertRaisesRegex(tcnn.NetError, "not the shape"):
            train.Net(112, 64).load_int(self.inet)

    def test_damaged_files_are_refused(self):
        with open(self.path, "rb") as f:
            raw = bytearray(f.read())
        cases = []
        flip = bytearray(raw)
        flip[len(raw) // 2] ^= 1
        cases.append((flip, "checksum"))
        cases.append((raw[:-1], "bytes, the header says"))
        ver = bytearray(raw)
        ver[4] = 3
        cases.append((ver, "version 3"))
        cases.append((b"NNUE" + raw[4:], "not a net file"))
        for data, want in cases:
            with self.assertRaisesRegex(tcnn.NetError, want):
                tcnn.from_bytes(bytes(data))
        with self.assertRaisesRegex(tcnn.NetError, "8x14 board, not 8x8"):
            tcnn.load(self.path, 8, 8)

    def test_integer_net_matches_float_and_plain_loop(self):
        d = self.data
        ev = self.inet.evaluate(d.board, d.stm)
        sel = np.arange(len(d))
        b = train.Batches(d, sel)
        xw, xb, stm, _, _ = b.batch(sel)
        net = self.net.double()
        with torch.no_grad():
            fq = net(xw, xb, stm, True).numpy() * 400
            ff = net(xw, xb, stm, False).numpy() * 400
        self.net.float()
        # quantised float and integer differ only by the final truncation
        self.assertLess(np.abs(ev - fq).max(), 1.0)
        # and the quantisation costs little against the float net
        self.assertLess(np.abs(ev - ff).mean(), 4.0, f"mean |int - float| {np.abs(ev - ff).mean():.2f} cp")
        for i in range(0, len(d), max(1, len(d) // 6)):
            self.assertEqual(int(ev[i]), plain_eval(self.inet, d.board[i], int(d.stm[i])), f"record {i}")

    def test_plain_loop_on_random_integers(self):
        rng = np.random.default_rng(5)
        h, cells = 32, 64
        net = tcnn.IntNet(8, 8, h, 32, 32, 400, "chess", rng.integers(-60, 60, (2, h)),
                          rng.integers(-40, 40, (2, 12 * cells, h)), rng.integers(-5000, 5000, 32),
                          rng.integers(-127, 128, (32, 2 * h)), rng.integers(-5000, 5000, 32),
                          rng.integers(-127, 128, (32, 32)), -1234, rng.integers(-127, 128, 32))
        d = tcdata.Data(CHESS)
        ev = net.evaluate(d.board[:12], d.stm[:12])
        self.assertTrue(np.any(ev != 0) and np.any(ev < 0))
        for i in range(12):
            self.assertEqual(int(ev[i]), plain_eval(net, d.board[i], int(d.stm[i])), f"record {i}")
        round_trip = tcnn.from_bytes(net.to_bytes())
        self.assertTrue(np.array_equal(round_trip.evaluate(d.board[:12], d.stm[:12]), ev))

    def test_check_mode(self):
        d = self.data
        out = subprocess.run([sys.executable, TRAIN_PY, "--check", self.path, "--data", TORUS, "--count", "5"],
                             check=True, capture_output=True, text=True).stdout.splitlines()
        self.assertEqual(len(out), 5)
        ev = self.inet.evaluate(d.board[:5], d.stm[:5])
        for i, line in enumerate(out):
            self.assertEqual(line, f"{d.fen(i)}; eval {ev[i]}; score {d.score[i]}")
        out = subprocess.run([sys.executable, TRAIN_PY, "--check", self.path, "--fen", d.fen(3)], check=True,
                             capture_output=True, text=True).stdout
        self.assertEqual(out.strip(), f"{d.fen(3)}; eval {ev[3]}")
        bad = subprocess.run([sys.executable, TRAIN_PY, "--check", self.path, "--data", CHESS],
                             capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("is for 8x14, the data is 8x8", bad.stderr)

    def test_option_errors(self):
        for argv, want in ((["--data", TORUS, "--out", "x", "--hidden", "100"], "multiples of 32"),
                           (["--data", TORUS], "needs --data FILE... and --out"),
                           (["--check", self.path], "needs either --data FILE or --fen"),
                           (["--data", TORUS, "--out", "x", "--l1", "16"], "--l1 16")):
            r = subprocess.run([sys.executable, TRAIN_PY, *argv], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, argv)
            self.assertIn(want, r.stderr)


if __name__ == "__main__":
    unittest.main()
