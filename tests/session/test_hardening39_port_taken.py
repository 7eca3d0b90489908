"""analyze: a server whose port is taken, and a host name curl cannot resolve, are connection
errors with their own line as the message.

Before: uvicorn logs asyncio's bind failure in lower case ("[Errno 98] error while attempting to
bind on address ('0.0.0.0', 30000): address already in use": cpython Lib/asyncio/base_events.py
lower-cases the strerror), which the connection pattern ("Address already in use") missed, so an
SGLang launch that died on a taken port was an "exit_code" error whose message was the first line
of its log (the ServerArgs dump). curl's "curl: (6) Could not resolve host: gpu01x" (ssh says
"hostname") in a terminal log, where no exit status is recorded, was no error at all.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

BIND = ("ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): "
        "address already in use")
SGLANG_LOG = f"""[2026-03-01 10:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', port=30000)
[2026-03-01 10:00:20] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=60.10 GB
[2026-03-01 10:00:40] Capture cuda graph end. Time elapsed: 12.30 s
[2026-03-01 10:00:41] INFO:     Started server process [4242]
[2026-03-01 10:00:41] INFO:     Waiting for application startup.
[2026-03-01 10:00:41] INFO:     Application startup complete.
[2026-03-01 10:00:41] {BIND}
[2026-03-01 10:00:41] INFO:     Waiting for application shutdown.
[2026-03-01 10:00:41] INFO:     Application shutdown complete.
"""


def test_a_launch_that_finds_its_port_taken_says_so(tmp_path):
    m = _Writer("9a1b0000-0000-4000-8000-00000000e039", None, datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc))
    m.prompt("The SGLang server on gpu01 will not come back after the restart.")
    m.bash("ssh gpu01 'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000'",
           SGLANG_LOG, exit_code=1)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    [error] = analyze_path(path).errors
    assert error.kind == "connection"
    assert error.message == f"[2026-03-01 10:00:41] {BIND}"
    assert error.host == "gpu01"


def test_a_host_curl_cannot_resolve_in_a_terminal_log_is_an_error(tmp_path):
    path = tmp_path / "oncall.log"
    path.write_text("me@laptop:~$ curl http://gpu01x:30000/health\n"
                    "curl: (6) Could not resolve host: gpu01x\n"
                    "me@laptop:~$ curl http://gpu01:30000/health\n"
                    '{"status":"ok"}\n', encoding="utf-8")
    [error] = analyze_path(path).errors
    assert (error.kind, error.message) == ("connection", "curl: (6) Could not resolve host: gpu01x")
    assert (error.command_seq, error.source_line) == (0, 2)  # the first command, its output's line
