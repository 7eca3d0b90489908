"""Throughput and memory of `spec-debug analyze` on a generated Claude Code session.

Compared in the same run with the floor any JSONL analyzer pays: a bare
``for line in f: json.loads(line)`` loop over the same file. Goals (issue #6): analyze within
2x of the bare loop, and peak RSS under 300 MB for a 500 MB transcript.

    python bench/analyze_throughput.py            # 500 MB
    python bench/analyze_throughput.py --mb 100   # quicker
    python bench/analyze_throughput.py --mb 100 --mode sequential   # no worker processes

A file of 16 MB or more is read by worker processes (spec_debug.session.parallel); the
peak RSS then adds each worker's peak to the parent's, and the CPU seconds of all of them
are shown beside the wall time the ratio is computed from.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_RATIO = 2.0
GOAL_RSS_MB = 300.0

_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from spec_debug.session import analyze_path, parallel
from spec_debug.session.commands import analysis_json
if sys.argv[2] == "sequential":
    parallel.PARALLEL_MIN_BYTES = float("inf")
workers = parallel.worker_count() if parallel.use_workers(Path(sys.argv[1])) else 0
t0 = time.perf_counter()
cpu0 = time.process_time()
analysis = analyze_path(Path(sys.argv[1]))
text = analysis_json(analysis)  # what analyze --format json writes (secrets masked)
dt = time.perf_counter() - t0
children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the worker processes, waited for
print(json.dumps({"seconds": dt, "events": analysis.stats["events"], "errors": analysis.stats["errors"],
                  "metrics": len(analysis.metrics), "dropped": analysis.stats["records_dropped"],
                  "json_bytes": len(text), "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "workers": workers, "worker_peak_rss_kb": children.ru_maxrss,
                  "cpu_seconds": time.process_time() - cpu0 + children.ru_utime + children.ru_stime}))
"""


def generate(path: Path, megabytes: float, seed: int = 6, lean: bool = False) -> int:
    """A plausible GPU debugging session: ssh commands, server logs, tracebacks, prose.

    Lines carry what Claude Code 2.1 writes (TRANSCRIPTS.md section 1a): assistant lines a
    ``requestId`` and the API message's ``id``/``model``/``stop_reason``/``usage``; Bash results
    a ``toolUseResult`` (``{stdout, stderr, interrupted, isImage}``, or the ``"Error: Exit code
    N..."`` string of a failure), so a command's output is in a line twice, as in a real
    session. ``lean=True`` writes the envelope and the content blocks only (the shape the
    first measurements used): the analyzer's work is the same, the bare loop's is smaller."""
    rng = random.Random(seed)
    target = int(megabytes * 1024 * 1024)
    hosts = ["10.1.230.174", "gpu-node-3", "gpu-node-7"]
    written = n = 0
    clock = 0

    def envelope(kind: str, message: dict, **extra) -> str:
        nonlocal n, clock
        n += 1
        clock += 3
        line = {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}", "isSidechain": False,
                "userType": "external", "cwd": "/root/work", "sessionId": "bench", "version": "2.1.173",
                "timestamp": f"2026-03-02T{(clock // 3600) % 24:02d}:{(clock // 60) % 60:02d}:{clock % 60:02d}.000Z",
                "message": message}
        if not lean:
            line["gitBranch"] = "main"
            if kind == "assistant":
                line["requestId"] = f"req_{n // 3:08d}"
                message.update({"id": f"msg_{n // 3:08d}", "type": "message", "model": "claude-opus-4-5",
                                "stop_reason": "tool_use" if message["content"][0]["type"] == "tool_use" else None,
                                "usage": {"input_tokens": rng.randint(1, 9), "output_tokens": rng.randint(10, 900),
                                          "cache_creation_input_tokens": rng.randint(0, 3000),
                                          "cache_read_input_tokens": rng.randint(10_000, 150_000),
                                          "service_tier": "standard"}})
            line.update(extra)
        return json.dumps(line) + "\n"

    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            host = rng.choice(hosts)
            roll = rng.random()
            if roll < 0.3:
                command = f"ssh root@{host} 'tail -n 200 /root/sglang_server.log'"
                output = "\n".join(
                    f"[2026-03-02 10:{i % 60:02d}:00 TP0] Decode batch, #running-req: {rng.randint(1, 8)}, #token: "
                    f"{rng.randint(100, 9000)}, token usage: 0.0{rng.randint(1, 9)}, accept len: {rng.uniform(1, 4):.2f}, "
                    f"accept rate: {rng.uniform(0.2, 0.9):.2f}, cuda graph: True, gen throughput (token/s): "
                    f"{rng.uniform(40, 160):.2f}, #queue-req: 0" for i in range(rng.randint(20, 60)))
                failed = False
            elif roll < 0.4:
                command = f"ssh root@{host} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'"
                output = ("Traceback (most recent call last):\n" + "".join(
                    f'  File "/root/ml-env/lib/python3.12/site-packages/mod{i}.py", line {rng.randint(1, 900)}, in f{i}\n'
                    f"    call_{i}(x)\n" for i in range(rng.randint(3, 20)))
                    + "UnboundLocalError: cannot access local variable 'attn_input' where it is not associated with a value")
                failed = True
            else:
                command = f"ssh -p 22 root@{host} 'ls -la /data/eagle3/hidden_states/shard_{rng.randint(0, 999):04d}'"
                output = "\n".join(f"-rw-r--r-- 1 root root {rng.randint(10**6, 10**8)} Mar  1 12:00 sample_{i:05d}.pt"
                                   for i in range(rng.randint(10, 80)))
                failed = False
            text = (f"Checking {host} again; throughput was {rng.uniform(40, 100):.1f} tok/s. "
                    + " ".join(rng.choice(["the", "draft", "layer", "accept", "hidden", "state", "flag", "log"])
                               for _ in range(rng.randint(20, 120))))
            tool_id = f"toolu_{n}"
            lines = [
                envelope("assistant", {"role": "assistant", "content": [{"type": "thinking", "thinking": text[:400], "signature": "x"}]}),
                envelope("assistant", {"role": "assistant", "content": [{"type": "text", "text": text}]}),
                envelope("assistant", {"role": "assistant", "content": [
                    {"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": command, "description": "check"}}]}),
                envelope("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                                               "content": ("Exit code 1\n" if failed else "") + output,
                                                               "is_error": failed}]},
                         toolUseResult=f"Error: Exit code 1\n{output}" if failed else
                         {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}),
            ]
            for line in lines:
                f.write(line)
                written += len(line)
    return written


def bare_loop(path: Path) -> float:
    t0 = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            json.loads(line)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=500.0, help="size of the generated session (default 500)")
    parser.add_argument("--path", type=Path, help="use this transcript instead of generating one")
    parser.add_argument("--keep", action="store_true", help="keep the generated file")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept (default 3)")
    parser.add_argument("--lean", action="store_true",
                        help="generate lines without the fields the analysis does not read (requestId, usage, "
                             "toolUseResult): the shape of the first measurements, a harder ratio")
    parser.add_argument("--mode", choices=("auto", "sequential"), default="auto",
                        help="auto: worker processes for a large file (the default of analyze); "
                             "sequential: one process whatever the size")
    args = parser.parse_args(argv)

    tmp = None
    if args.path:
        path = args.path
    else:
        if args.keep:  # a TemporaryDirectory would be removed at exit even without cleanup()
            path = Path(tempfile.mkdtemp(prefix="spec-debug-bench-")) / "bench-session.jsonl"
        else:
            tmp = tempfile.TemporaryDirectory(prefix="spec-debug-bench-")
            path = Path(tmp.name) / "bench-session.jsonl"
        t0 = time.perf_counter()
        generate(path, args.mb, lean=args.lean)
        print(f"generated {path} in {time.perf_counter() - t0:.1f} s")
    size_mb = path.stat().st_size / (1024 * 1024)
    # The two are run in turns, --repeat times, and the best of each is compared: on a shared
    # machine one run of either can be 30% slow, and alternating exposes both to the same noise.
    bares, results = [], []
    try:
        for _ in range(max(1, args.repeat)):
            bares.append(bare_loop(path))
            child = subprocess.run([sys.executable, "-c", _CHILD, str(path), args.mode], capture_output=True,
                                   text=True, check=True)
            results.append(json.loads(child.stdout.strip().splitlines()[-1]))
    finally:
        if tmp is not None:
            tmp.cleanup()
    bare = min(bares)
    result = min(results, key=lambda r: r["seconds"])
    # Peak memory of the whole analysis: the parent plus every worker at its own peak (the
    # peaks need not coincide, so this overstates it); the largest of the runs.
    rss_mb = max((r["peak_rss_kb"] + r["workers"] * r["worker_peak_rss_kb"]) / 1024 for r in results)
    ratio = result["seconds"] / bare
    pairs = sorted(r["seconds"] / b for r, b in zip(results, bares))
    print(f"file:      {size_mb:.1f} MB, {result['events']} events, {result['errors']} errors, "
          f"{result['metrics']} metrics kept, {result['dropped']} records over the cap")
    print(f"bare loop: {bare:.2f} s  {size_mb / bare:.1f} MB/s   (for line in f: json.loads(line))")
    mode = f"{result['workers']} worker processes" if result["workers"] else "one process"
    print(f"analyze:   {result['seconds']:.2f} s  {size_mb / result['seconds']:.1f} MB/s   (analyze_path + JSON output; "
          f"{mode}, {result['cpu_seconds']:.2f} s CPU)")
    spread = f"; run by run {pairs[0]:.2f}-{pairs[-1]:.2f}x" if len(pairs) > 1 else ""
    print(f"ratio:     {ratio:.2f}x the bare loop, best of {len(bares)} each (goal <= {GOAL_RATIO:g}x): "
          f"{'ok' if ratio <= GOAL_RATIO else 'MISSED'}{spread}")
    workers_rss = (f" = {result['peak_rss_kb'] / 1024:.0f} MB parent + {result['workers']} x "
                   f"{result['worker_peak_rss_kb'] / 1024:.0f} MB workers" if result["workers"] else "")
    print(f"peak RSS:  {rss_mb:.0f} MB{workers_rss} (goal < {GOAL_RSS_MB:g} MB): "
          f"{'ok' if rss_mb < GOAL_RSS_MB else 'MISSED'}")
    return 0 if ratio <= GOAL_RATIO and rss_mb < GOAL_RSS_MB else 1


if __name__ == "__main__":
    sys.exit(main())
