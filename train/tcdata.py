"""Reads `topochess datagen` files with numpy (the layout is in docs/nnue.md)
and turns boards into the net's input features (docs/nnue-format.md)."""
import os
import struct
import subprocess
import zlib

import numpy as np

MAGIC = b"TCPD"
VERSIONS = (1, 2)  # version 2 records which evaluation scored the data
HEADER_SIZE = 128
PIECE_LETTERS = " PNBRQK"


class DataError(Exception):
    """A file that is not a datagen file of a version this reader knows."""


def record_size(cells):
    return (cells + 1) // 2 + 10


def read_header(raw, path="data"):
    if len(raw) < HEADER_SIZE:
        raise DataError(f"{path}: {len(raw)} bytes, too short for a datagen file")
    if bytes(raw[:4]) != MAGIC:
        raise DataError(f"{path}: not a datagen file (it does not start with 'TCPD')")
    version, width, height, rsize, random_plies = struct.unpack_from("<5I", raw, 4)
    seed, nodes = struct.unpack_from("<2Q", raw, 24)
    hash_mb, max_plies = struct.unpack_from("<2I", raw, 40)
    name = bytes(raw[48:112]).split(b"\0", 1)[0].decode("utf-8", "replace")
    if version not in VERSIONS:
        raise DataError(f"{path}: datagen file version {version}, this reader knows versions "
                        f"{', '.join(map(str, VERSIONS))}")
    scored_by_net, net_crc = struct.unpack_from("<2I", raw, 112) if version >= 2 else (0, 0)
    if scored_by_net > 1:
        raise DataError(f"{path}: evaluation {scored_by_net} in the header is not 0 (hand-written) or 1 (a net)")
    if not (2 <= width <= 16 and 2 <= height <= 16):
        raise DataError(f"{path}: board {width}x{height} out of range")
    if rsize != record_size(width * height):
        raise DataError(f"{path}: record size {rsize}, a {width}x{height} board needs {record_size(width * height)}")
    return dict(version=version, width=width, height=height, record_size=rsize, random_plies=random_plies,
                seed=seed, nodes=nodes, hash_mb=hash_mb, max_plies=max_plies, name=name,
                net_crc=net_crc if scored_by_net else None)


def scorer_text(h):
    """Which evaluation scored a file: "net 1a2b3c4d" or "the hand-written
    evaluation" (as `topochess datagen --to-text` says)."""
    return "the hand-written evaluation" if h["net_crc"] is None else f"net {h['net_crc']:08x}"


class Data:
    """Every whole record of one or more files of the same board, as arrays:
    board (n, cells) piece codes (colour * 8 + type, 0 empty), stm, castling,
    result (side to move's view: 1, 0, -1), score (side to move's view, cp),
    ply, game, and file (which file each record came from)."""

    def __init__(self, paths, same_size=False):
        """same_size: files of other boards of the same size are taken too
        (the first file names the board)."""
        if isinstance(paths, str):
            paths = [paths]
        parts = []
        self.names = []  # the board of each file
        self.headers = []  # each file's header
        self.header = None
        self.torn = 0
        for i, path in enumerate(paths):
            raw = np.fromfile(path, dtype=np.uint8)
            h = read_header(raw, path)
            self.names.append(h["name"])
            self.headers.append(h)
            if self.header is None:
                self.header = h
            elif (h["width"], h["height"]) != (self.header["width"], self.header["height"]) or \
                    (not same_size and h["name"] != self.header["name"]):
                raise DataError(f"{path}: {h['name']} {h['width']}x{h['height']} does not go with "
                                f"{self.header['name']} {self.header['width']}x{self.header['height']}")
            rs = h["record_size"]
            body = raw[HEADER_SIZE:]
            n = len(body) // rs
            self.torn += len(body) - n * rs
            parts.append((body[:n * rs].reshape(n, rs), i))
        h = self.header
        self.width, self.height, self.name = h["width"], h["height"], h["name"]
        self.cells = cells = self.width * self.height
        nb = (cells + 1) // 2
        recs = np.concatenate([p for p, _ in parts]) if parts else np.zeros((0, h["record_size"]), np.uint8)
        self.file = np.concatenate([np.full(len(p), i, np.int32) for p, i in parts])
        packed = recs[:, :nb]
        board = np.empty((len(recs), 2 * nb), np.uint8)
        board[:, 0::2] = packed & 15
        board[:, 1::2] = packed >> 4
        self.board = np.ascontiguousarray(board[:, :cells])
        flags = recs[:, nb]
        self.stm = (flags & 1).astype(np.int64)
        self.castling = (flags >> 1) & 15
        self.result = recs[:, nb + 1].view(np.int8).astype(np.int64)
        self.score = np.ascontiguousarray(recs[:, nb + 2:nb + 4]).view("<i2").ravel().astype(np.int64)
        self.ply = np.ascontiguousarray(recs[:, nb + 4:nb + 6]).view("<u2").ravel().astype(np.int64)
        self.game = np.ascontiguousarray(recs[:, nb + 6:nb + 10]).view("<u4").ravel().astype(np.int64)

    def __len__(self):
        return len(self.board)

    def fen(self, i):
        """The record as the text form of `topochess datagen --to-text`
        writes its FEN: board, side, castling, '- 0', move number."""
        return board_fen(self.board[i], self.width, self.height) + " " + "wb"[self.stm[i]] + " " + \
            castling_text(int(self.castling[i])) + f" - 0 {int(self.ply[i]) // 2 + 1}"


def castling_text(bits):
    s = "".join(c for b, c in zip((1, 2, 4, 8), "KQkq") if bits & b)
    return s or "-"


def board_fen(board, width, height):
    rows = []
    for y in range(height - 1, -1, -1):
        row, empty = "", 0
        for x in range(width):
            code = int(board[y * width + x])
            t = code & 7
            if code == 0 or not 1 <= t <= 6:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            c = PIECE_LETTERS[t]
            row += c if code >> 3 == 0 else c.lower()
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def parse_fen(fen, width, height):
    """The board (piece codes by cell) and side to move of a FEN."""
    fields = fen.split()
    ranks = fields[0].split("/")
    if len(ranks) != height:
        raise ValueError(f"FEN has {len(ranks)} ranks, the board {height}")
    board = np.zeros(width * height, np.uint8)
    for r, text in enumerate(ranks):
        y, x, i = height - 1 - r, 0, 0
        while i < len(text):
            if text[i].isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                x += int(text[i:j])
                i = j
                continue
            t = PIECE_LETTERS.find(text[i].upper())
            if t < 1 or x >= width:
                raise ValueError(f"FEN rank {height - r}: bad '{text}'")
            board[y * width + x] = (0 if text[i].isupper() else 8) + t
            x += 1
            i += 1
        if x != width:
            raise ValueError(f"FEN rank {height - r}: {x} cells, the board has {width}")
    stm = 1 if len(fields) > 1 and fields[1] == "b" else 0
    return board, stm


def feature_indices(board, cells, perspective):
    """For boards (n, cells) of piece codes: (n, cells) feature indices in
    one perspective, -1 on empty cells:
    index(p, c, t, s) = ((c == p ? 0 : 6) + t) * N + s, t from 0 (pawn)."""
    board = np.asarray(board)
    colour = board >> 3
    t = (board & 7).astype(np.int64) - 1
    s = np.arange(cells, dtype=np.int64)
    idx = (np.where(colour == perspective, 0, 6) + t) * cells + s
    return np.where(board != 0, idx, -1)


# The hand-evaluation side file of `topochess datagen --hand-eval DATA --out
# SIDE` (docs/nnue-training.md): a 32-byte header (magic, version, the data
# file's size, record count and CRC-32), then an int16 per record.
HAND_MAGIC = b"TCHE"
HAND_VERSION = 1
HAND_HEADER = 32


class StaleHand(DataError):
    """A side file that does not belong to (this state of) its data file."""


def hand_path(data_path):
    """The side file next to a data file: chess.bin -> chess.hand."""
    root, ext = os.path.splitext(data_path)
    return (root if ext == ".bin" else data_path) + ".hand"


def file_identity(data_path):
    """(size, whole records, CRC-32) of a data file, as a side file names it."""
    with open(data_path, "rb") as f:
        raw = f.read()
    h = read_header(np.frombuffer(raw, np.uint8), data_path)
    return len(raw), (len(raw) - HEADER_SIZE) // h["record_size"], zlib.crc32(raw) & 0xFFFFFFFF


def read_hand(side_path, data_path):
    """The hand-written evaluations (int64 array) of a side file, after
    checking that it belongs to data_path as it is now (StaleHand if not)."""
    with open(side_path, "rb") as f:
        raw = f.read()
    if len(raw) < HAND_HEADER or raw[:4] != HAND_MAGIC:
        raise StaleHand(f"{side_path}: not a hand-evaluation side file")
    version, size, records, crc = struct.unpack_from("<IQQI", raw, 4)
    if version != HAND_VERSION:
        raise StaleHand(f"{side_path}: side file version {version}, this reader knows {HAND_VERSION}")
    want = file_identity(data_path)
    if (size, records, crc) != want:
        raise StaleHand(f"{side_path}: made for {size} bytes, {records} records, crc {crc:08x}; {data_path} is "
                        f"{want[0]} bytes, {want[1]} records, crc {want[2]:08x}")
    if len(raw) != HAND_HEADER + 2 * records:
        raise StaleHand(f"{side_path}: {len(raw)} bytes, {records} records need {HAND_HEADER + 2 * records}")
    return np.frombuffer(raw, "<i2", records, HAND_HEADER).astype(np.int64)


def hand_evals(data_path, binary, log=None):
    """The side file of data_path, reused when it matches the data file,
    else (re)made with `binary datagen --hand-eval`."""
    side = hand_path(data_path)
    if os.path.exists(side):
        try:
            return read_hand(side, data_path)
        except StaleHand as e:
            if log:
                print(f"train: {e}: made again", file=log)
    r = subprocess.run([binary, "datagen", "--hand-eval", data_path, "--out", side], capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise DataError(f"{binary} datagen --hand-eval {data_path}: {r.stderr.strip() or 'exit %d' % r.returncode}")
    if log:
        print(f"train: wrote {side}", file=log)
    return read_hand(side, data_path)
