"""The `.tcnn` net file of docs/nnue-format.md (version 2; version 1 is
still read, as a pure net): writing it from
integer tensors, reading it back (every check the format asks for), and
evaluating positions with exactly the integer arithmetic the C inference
uses, so that its results can be compared bit for bit."""
import struct
import zlib

import numpy as np

import tcdata

MAGIC = b"TCNN"
VERSION = 2
FLAG_HYBRID = 1         # flags bit 0: the engine adds the hand-written evaluation
FT_SCALE = 127          # ft_bias, ft_weight: integer = round(float * 127)
W_SCALE = 64            # layer weights: integer = round(float * 64)
B_SCALE = 127 * 64      # layer biases
FT_RANGE = 2.0
W_RANGE = 127 / 64


class NetError(Exception):
    """A net file that the format refuses, with the reason."""


class IntNet:
    """The integer tensors of one net, shaped as in the file."""

    def __init__(self, width, height, hidden, l1, l2, scale, name, ft_bias, ft_weight, l1_bias, l1_weight,
                 l2_bias, l2_weight, out_bias, out_weight, hybrid=False):
        self.hybrid = bool(hybrid)
        self.width, self.height, self.hidden, self.l1, self.l2 = width, height, hidden, l1, l2
        self.scale, self.name = scale, name
        self.cells = width * height
        self.ft_bias = np.asarray(ft_bias, np.int16).reshape(2, hidden)
        self.ft_weight = np.asarray(ft_weight, np.int16).reshape(2, 12 * self.cells, hidden)
        self.l1_bias = np.asarray(l1_bias, np.int32).reshape(l1)
        self.l1_weight = np.asarray(l1_weight, np.int8).reshape(l1, 2 * hidden)
        self.l2_bias = np.asarray(l2_bias, np.int32).reshape(l2)
        self.l2_weight = np.asarray(l2_weight, np.int8).reshape(l2, l1)
        self.out_bias = np.int32(out_bias)
        self.out_weight = np.asarray(out_weight, np.int8).reshape(l2)

    def to_bytes(self):
        name = self.name.encode("utf-8")[:63]
        head = MAGIC + struct.pack("<9I", VERSION, self.width, self.height, self.hidden, self.l1, self.l2,
                                   self.scale, len(name), FLAG_HYBRID if self.hybrid else 0) + name
        body = b"".join(a.astype(a.dtype.newbyteorder("<")).tobytes() for a in (
            self.ft_bias, self.ft_weight, self.l1_bias, self.l1_weight, self.l2_bias, self.l2_weight,
            np.array([self.out_bias], np.int32), self.out_weight))
        data = head + body
        return data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF)

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.to_bytes())

    def evaluate(self, board, stm, chunk=256):
        """Centipawns for the side to move, as int64 arrays, for boards
        (n, cells) of piece codes and sides to move (n,): the integer
        arithmetic of docs/nnue-format.md. For a hybrid net this is the
        net's part only: the engine adds the hand-written evaluation."""
        board = np.atleast_2d(np.asarray(board))
        stm = np.atleast_1d(np.asarray(stm, np.int64))
        if board.shape[1] != self.cells:
            raise NetError(f"boards of {board.shape[1]} cells, the net is for {self.width}x{self.height}")
        return np.concatenate([self._evaluate(board[i:i + chunk], stm[i:i + chunk])
                               for i in range(0, len(board), chunk)] or [np.zeros(0, np.int64)])

    def _evaluate(self, board, stm):
        n, cells = board.shape
        acc = []
        for p in range(2):
            idx = tcdata.feature_indices(board, cells, p)
            rows = self.ft_weight[p].astype(np.int64)[np.where(idx >= 0, idx, 0)]
            rows *= (idx >= 0)[:, :, None]
            a = self.ft_bias[p].astype(np.int64) + rows.sum(axis=1)
            if a.min(initial=0) < -32768 or a.max(initial=0) > 32767:
                raise NetError("an accumulator leaves int16: the net's weights are out of range")
            acc.append(a)
        us = np.where(stm[:, None] == 0, acc[0], acc[1])
        them = np.where(stm[:, None] == 0, acc[1], acc[0])
        a0 = np.clip(np.concatenate([us, them], axis=1), 0, 127)
        z1 = (self.l1_bias.astype(np.int64) + a0 @ self.l1_weight.astype(np.int64).T) >> 6
        a1 = np.clip(z1, 0, 127)
        z2 = (self.l2_bias.astype(np.int64) + a1 @ self.l2_weight.astype(np.int64).T) >> 6
        a2 = np.clip(z2, 0, 127)
        out = np.int64(self.out_bias) + a2 @ self.out_weight.astype(np.int64)
        for z in (z1, z2, out):
            if np.abs(z).max(initial=0) >= 2 ** 31:
                raise NetError("a layer sum leaves int32")
        # C's integer division: towards zero
        num = out * self.scale
        return np.sign(num) * (np.abs(num) // B_SCALE)


def load(path, width=None, height=None):
    with open(path, "rb") as f:
        data = f.read()
    return from_bytes(data, path, width, height)


def file_crc(path):
    """The CRC-32 a net file ends with: the net's name in datagen headers."""
    with open(path, "rb") as f:
        f.seek(-4, 2)
        return struct.unpack("<I", f.read(4))[0]


def from_bytes(data, path="net", width=None, height=None):
    if len(data) < 36:
        raise NetError(f"{path}: {len(data)} bytes, too short for a net file")
    if data[:4] != MAGIC:
        raise NetError(f"{path}: not a net file (it does not start with 'TCNN')")
    version, w, h, hidden, l1, l2, scale, nlen = struct.unpack_from("<8I", data, 4)
    if version not in (1, VERSION):
        raise NetError(f"{path}: net file version {version}, this reader knows versions 1 and {VERSION}")
    head = 36 if version == 1 else 40
    if len(data) < head:
        raise NetError(f"{path}: {len(data)} bytes, too short for a version {version} net file")
    flags = 0 if version == 1 else struct.unpack_from("<I", data, 36)[0]
    if flags & ~FLAG_HYBRID:
        raise NetError(f"{path}: unknown flags {flags:08x} (only bit 0, hybrid, is known)")
    if not (1 <= w <= 16 and 1 <= h <= 16):
        raise NetError(f"{path}: board {w}x{h} out of range")
    if hidden % 32 or not 32 <= hidden <= 1024:
        raise NetError(f"{path}: H = {hidden} is not a multiple of 32 from 32 to 1024")
    for label, v in (("L1", l1), ("L2", l2)):
        if v % 32 or not 32 <= v <= 64:
            raise NetError(f"{path}: {label} = {v} is not 32 or 64")
    if nlen > 63:
        raise NetError(f"{path}: name length {nlen} is over 63")
    if (width, height) != (None, None) and (w, h) != (width, height):
        raise NetError(f"{path}: the net is for a {w}x{h} board, not {width}x{height}")
    cells = w * h
    sizes = [("ft_bias", np.int16, 2 * hidden), ("ft_weight", np.int16, 2 * 12 * cells * hidden),
             ("l1_bias", np.int32, l1), ("l1_weight", np.int8, l1 * 2 * hidden), ("l2_bias", np.int32, l2),
             ("l2_weight", np.int8, l2 * l1), ("out_bias", np.int32, 1), ("out_weight", np.int8, l2)]
    pos = head + nlen
    want = pos + sum(np.dtype(t).itemsize * n for _, t, n in sizes) + 4
    if len(data) != want:
        raise NetError(f"{path}: {len(data)} bytes, the header says {want}")
    crc = struct.unpack_from("<I", data, len(data) - 4)[0]
    if zlib.crc32(data[:-4]) & 0xFFFFFFFF != crc:
        raise NetError(f"{path}: checksum mismatch (the file is damaged)")
    name = data[head:head + nlen].decode("utf-8", "replace")
    arrays = {}
    for label, t, n in sizes:
        dt = np.dtype(t).newbyteorder("<")
        arrays[label] = np.frombuffer(data, dt, n, pos).astype(t)
        pos += dt.itemsize * n
    return IntNet(w, h, hidden, l1, l2, scale, name, arrays["ft_bias"], arrays["ft_weight"], arrays["l1_bias"],
                  arrays["l1_weight"], arrays["l2_bias"], arrays["l2_weight"], int(arrays["out_bias"][0]),
                  arrays["out_weight"], hybrid=bool(flags & FLAG_HYBRID))
