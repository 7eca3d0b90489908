"""server_log (host side): the lines of a server log or benchmark output that carry numbers.

Only lines with the known markers are returned (bounded), so a multi-GB log is not shipped;
the controller parses them (spec_debug.diagnose.serverlog).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import zlib
from collections import deque
from typing import Any

MARKERS = ("Decode batch", "SpecDecoding metrics", "Speculative metrics", "Avg generation throughput", "token throughput",
           "Accept length", "Acceptance length", "Acceptance rate", "Successful requests",
           "request concurrency", "Request throughput", "Mean TPOT",
           # sglang bench_one_batch_server: per-run lines, and its result table (header, then rows)
           "output throughput:", "acc_length:", "batch size:", "acc length",
           # vLLM examples/offline_inference/spec_decode.py: its summary is lower case
           "acceptance length:", "acceptance at token", "Acceptance rate at token", "num_drafts:",
           "num_draft_tokens:", "num_accepted_tokens:",
           # vllm bench serve's Speculative Decoding section (vllm/benchmarks/serve.py): counts, then a
           # `Per-position acceptance (%):` header over `  Position 0: 83.42` rows (_POSITION_ROW)
           "Drafts:", "Draft tokens:", "Accepted tokens:", "Per-position acceptance")
# A row of that block; "Position " alone is too common a word in a server log to keep lines by.
_POSITION_ROW = re.compile(r"\s*Position \d+:\s*[\d.]+\s*$")
MAX_LINES = 20_000
# `speculative_num_steps=3` / `'speculative_num_steps': 3` of SGLang's server_args line, and
# vLLM's `speculative_config=SpeculativeConfig(...)` (spec_debug.diagnose.serverlog reads them)
_SERVED_PART = re.compile(r"'?speculative_\w+'?(?:=|:\s*)(?:SpeculativeConfig\([^)]*\)|'[^']*'|[^,)}\s]+)")
# SGLang's per-request `Finish: obj=GenerateReqInput(...), out={... 'meta_info': {..., 'spec_verify_ct':
# 40, 'spec_accept_length': 2.75, ...}}` (--log-requests, sgl-project/sglang PR #11441): the request and
# its text run to many kB, so only the request's speculative counts travel
_FINISH_PART = re.compile(r"'(?:spec_verify_ct|spec_accept_rate|spec_accept_length|completion_tokens)':\s*[-+\d.e]+")
# The line that names an exception (`KeyError: 'midlayer.self_attn.qkv_proj.weight'`, Tencent/AngelSlim#39;
# vLLM's `(Worker_TP0 pid=530) ERROR ... ValueError: ...`, vllm-project/vllm#26328) or CUDA's out of
# memory: a log with no numbers usually ends in one, the server having failed to load its draft.
# Kept apart from the numbers (a few, the last ones), so an error flood cannot push them out.
_ERROR_LINE = re.compile(r"(?:^|[\s:\]])(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)(?::\s|\s*$)|CUDA out of memory")
MAX_ERRORS = 3


def _open_log(path: str) -> Any:
    """The log as text: a rotated log compressed by logrotate (`server.log.1.gz`) is read
    through gzip, as `zcat` would show it."""
    with open(path, "rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace")
    return open(path, "r", encoding="utf-8", errors="replace")


def _docker_line(line: str) -> str:
    """A line of Docker's json-file log (/var/lib/docker/containers/ID/ID-json.log, where a
    containerised server's output lands on the host): `{"log":"...\\n","stream":...}` holds the
    server's line JSON-escaped; its text is what the server printed."""
    if not line.startswith('{"log":'):
        return line
    try:
        text = json.loads(line).get("log")
    except (ValueError, AttributeError):
        return line
    return text if isinstance(text, str) else line


def run(args: dict) -> dict:
    path = os.path.expanduser(str(args.get("server_log") or ""))
    if not path:
        return {"args": args, "found": False, "lines": []}
    if not os.path.isfile(path):
        return {"args": args, "found": False, "path": path, "lines": []}
    try:
        return _read(args, path)
    except (OSError, EOFError, zlib.error) as exc:
        # another user's log (a root-owned /var/log file), a truncated .gz, a .gz whose
        # deflate stream is damaged (gzip lets zlib.error through, not as an OSError): one
        # clear reason
        return {"args": args, "found": False, "path": path, "lines": [],
                "unreadable": f"{path} cannot be read: {getattr(exc, 'strerror', None) or exc}"}


def _read(args: dict, path: str) -> dict:
    kept: deque[str] = deque(maxlen=MAX_LINES)
    errors: deque[str] = deque(maxlen=MAX_ERRORS)
    total = 0
    in_table = False  # the rows under a bench_one_batch_server table header carry no marker
    with _open_log(path) as handle:
        for line in handle:
            line = _docker_line(line)
            total += 1
            in_table = in_table and line.lstrip().startswith("|")
            if "Finish: " in line and "'spec_accept_length'" in line:
                kept.append(" ".join(["Finish:", *_FINISH_PART.findall(line)]))
            elif in_table or any(marker in line for marker in MARKERS) or (
                    "Position " in line and _POSITION_ROW.match(line)):
                kept.append(line.rstrip("\n")[:2000])
            elif "server_args=" in line or "speculative_config=SpeculativeConfig(" in line or (
                    "speculative_config=None" in line):
                # the startup line with the settings the server runs with: thousands of
                # characters, of which only the speculative ones travel
                errors.clear()  # and a new start: the errors of a run before it are not this server's
                kept.append(" ".join(["server_args=" if "server_args=" in line else "", *_SERVED_PART.findall(line)]))
            in_table = in_table or ("acc length" in line and line.lstrip().startswith("|"))
            if ("Error" in line or "Exception" in line or "out of memory" in line) and _ERROR_LINE.search(line):
                errors.append(line.strip()[:500])
    return {"args": args, "found": True, "path": path, "total_lines": total, "lines": list(kept),
            "errors": list(errors)}
