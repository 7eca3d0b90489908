"""Throughput of masking a step's output stream (spec_debug.redact.StreamRedactor).

Every byte a step prints passes through the redactor on its way into the run's artifacts, so
its speed bounds how fast a large output (a server log, a binary dump a step cats by mistake) is
kept. Compared in the same run with the floor any masking pays: decoding each block with
surrogateescape and encoding it back, with nothing looked for.

    python bench/redact_stream.py            # 32 MB of each kind
    python bench/redact_stream.py --mb 8
"""

from __future__ import annotations

import argparse
import random
import time

from spec_debug.redact import StreamRedactor

READ = 32 * 1024
"""What one read of a step's channel gives at most (paramiko's default window packet)."""

DECODE = (b"[2026-03-02 10:41:07 TP0] Decode batch, #running-req: 3, #token: 812, token usage: 0.03, "
          b"accept len: 2.41, gen throughput (token/s): 88.10, #queue-req: 0\n")
CJK = "[2026-03-02 10:41:07] 解码批次: 吞吐量 88.10 token/s, 接受长度 2.41, 队列 0\n".encode()


def _kinds(megabytes: float) -> dict[str, bytes]:
    n = int(megabytes * 1024 * 1024)
    return {
        "SGLang server log": (DECODE * (n // len(DECODE) + 1))[:n],
        "log written in Chinese": (CJK * (n // len(CJK) + 1))[:n],
        "random bytes": random.Random(1).randbytes(n),
    }


def _bare(data: bytes) -> float:
    t0 = time.perf_counter()
    for at in range(0, len(data), READ):
        data[at:at + READ].decode("utf-8", "surrogateescape").encode("utf-8", "surrogateescape")
    return time.perf_counter() - t0


def _masked(data: bytes) -> float:
    t0 = time.perf_counter()
    redactor = StreamRedactor()
    for at in range(0, len(data), READ):
        redactor.feed(data[at:at + READ])
    redactor.close()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=32.0, help="megabytes of each kind of output (default 32)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept (default 3)")
    args = parser.parse_args(argv)
    for name, data in _kinds(args.mb).items():
        bare = min(_bare(data) for _ in range(args.repeat))
        masked = min(_masked(data) for _ in range(args.repeat))
        mb = len(data) / (1024 * 1024)
        print(f"{name:24s} masked {mb / masked:7.1f} MB/s   bare decode+encode {mb / bare:7.1f} MB/s   "
              f"ratio {masked / bare:5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
