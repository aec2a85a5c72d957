#!/usr/bin/env python3
"""A stream client that reads nothing (a socket with a small receive
buffer) until the file GO exists, then reads what it is sent. Prints "open"
once connected, and at the end one line: "overflow" or "no-overflow" (an
overflow event came), "ended" or "open" (the chunked stream ended), and how
many EVENT events it got.
Usage: sse_stall.py PORT PATH GO EVENT [BIND_ADDRESS]"""
import os
import socket
import sys
import time

port, path, go, event = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
if len(sys.argv) > 5:
    s.bind((sys.argv[5], 0))
s.connect(("127.0.0.1", port))
s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
print("open", flush=True)
while not os.path.exists(go):  # reads nothing until told to
    time.sleep(0.05)
s.settimeout(5)
data = b""
try:
    while not data.endswith(b"\r\n0\r\n\r\n"):
        d = s.recv(65536)
        if not d:
            break
        data += d
except socket.timeout:
    pass
print("overflow" if b"event: overflow" in data else "no-overflow",
      "ended" if data.endswith(b"\r\n0\r\n\r\n") else "open",
      data.count(b"event: " + event.encode()), flush=True)
