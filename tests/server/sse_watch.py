#!/usr/bin/env python3
"""A watcher that follows the EventSource rules of the HTML standard, as a
browser's does for the hub's pages: on a dropped connection it waits the
stream's `retry` time and connects again with Last-Event-ID; a non-200
answer ends it (a browser's EventSource closes then too). Appends every
event to OUT and one line "connect STATUS" per connection; stops after
SECONDS. Usage: sse_watch.py URL OUT SECONDS"""
import http.client
import sys
import time
import urllib.parse

url, out, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
u = urllib.parse.urlsplit(url)
end = time.monotonic() + seconds
retry, last = 3.0, None
with open(out, "a", buffering=1) as f:
    while time.monotonic() < end:
        try:
            c = http.client.HTTPConnection(u.hostname, u.port, timeout=max(0.5, end - time.monotonic()))
            h = {"Accept": "text/event-stream"}
            if last is not None:
                h["Last-Event-ID"] = last
            c.request("GET", u.path + ("?" + u.query if u.query else ""), headers=h)
            r = c.getresponse()
            f.write("connect %d\n" % r.status)
            if r.status != 200:
                break
            while True:
                line = r.readline()
                if not line:
                    break
                s = line.decode("utf-8", "replace")
                f.write(s)
                if s.startswith("id: "):
                    last = s[4:].strip()
                elif s.startswith("retry: "):
                    retry = int(s[7:].strip()) / 1000.0
        except (OSError, http.client.HTTPException):
            f.write("dropped\n")
        time.sleep(retry)
