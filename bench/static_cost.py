"""The cpu a static file costs the server, by Accept-Encoding: GETs /static/katex/katex.min.js (about 270 KB) over
one keep-alive connection until 2 s have passed (at most 2,000 times) and reads the server's user + system time
from /proc before and after. Figures, not assertions.

Usage: static_cost.py PORT SERVER_PID"""
import http.client
import os
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])
tick = os.sysconf("SC_CLK_TCK")


def cpu_seconds():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


for encoding in ("br", "gzip", "identity"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    count, size, coding = 0, 0, ""
    before, start = cpu_seconds(), time.monotonic()
    while count < 2000 and time.monotonic() - start < 2:
        connection.request("GET", "/static/katex/katex.min.js", headers={"Accept-Encoding": encoding})
        response = connection.getresponse()
        size = len(response.read())
        coding = response.getheader("Content-Encoding") or "none"
        count += 1
    spent = cpu_seconds() - before
    connection.close()
    print(f"static:   katex.min.js, Accept-Encoding: {encoding:8} {1000 * spent / count:7.3f} ms cpu a response "
          f"({count} responses, {size:,} bytes each, Content-Encoding: {coding})")
