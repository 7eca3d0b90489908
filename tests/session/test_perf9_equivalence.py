"""The shortcuts that make error and speculative-fact scans cheaper read what the full scans read.

A server log is ruled out by one letter before a whole-text literal is searched, and a
traceback's frames are read as one run of indented lines rather than line by line. Each case
sits just beside a shortcut: a log that holds the letter and the literal, a traceback whose
frames are broken by a blank line, a carriage return, a quoted path that would span lines.
"""

from __future__ import annotations

import pytest

from spec_debug.session.failures import extract_errors
from spec_debug.session.spec_facts import text_observations


def decode_log(n: int = 4) -> str:
    """``n`` SGLang Decode batch lines (scheduler_metrics_mixin.py, log_decode_stats)."""
    return "\n".join(
        f"[2026-03-02 10:0{i}:00 TP0] Decode batch, #running-req: 1, #token: {900 + i}, token usage: 0.01, "
        f"accept len: 2.00, accept rate: 0.50, cuda graph: True, gen throughput (token/s): {100 + 10 * i:.2f}, "
        f"#queue-req: 0" for i in range(n))


def errors(output: str, exit_code: int | None = None) -> list[tuple]:
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in extract_errors(output, exit_code)]


def test_a_clean_server_log_has_no_error():
    assert errors(decode_log()) == []


@pytest.mark.parametrize("tail, expected", [
    ("[2026-03-02 10:09:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered",
     ("cuda_error", "RuntimeError", "CUDA error: an illegal memory access was encountered", None, None)),
    ("[2026-03-02 10:09:00] Received sigquit from a child process. It usually means the child failed.",
     ("signal", "SIGQUIT", "[2026-03-02 10:09:00] Received sigquit from a child process. It usually means the "
      "child failed.", None, None)),
])
def test_a_fault_after_the_decode_lines_is_still_found(tail, expected):
    assert errors(decode_log() + "\n" + tail) == [expected]


def test_an_error_body_curl_printed_is_still_found():
    body = '{"object": "error", "message": "The model `x` does not exist.", "type": "NotFoundError", "param": null, "code": 404}'
    assert errors(body, 0) == [("http_error", "NotFoundError", "The model `x` does not exist. (HTTP 404)", None, None)]


FRAMES = ('Traceback (most recent call last):\n'
          '  File "/srv/sglang/launch_server.py", line 11, in <module>\n'
          '    main()\n'
          '  File "/srv/sglang/srt/server.py", line 305, in main\n'
          '    run(args)\n')


@pytest.mark.parametrize("traceback, file, line", [
    (FRAMES + "ValueError: bad draft\n", "/srv/sglang/srt/server.py", 305),
    # a blank line inside the frames: the innermost frame is still the last one
    (FRAMES.replace("    main()\n", "    main()\n\n") + "ValueError: bad draft\n", "/srv/sglang/srt/server.py", 305),
    # Windows line ends
    ((FRAMES + "ValueError: bad draft\n").replace("\n", "\r\n"), "/srv/sglang/srt/server.py", 305),
    # a source line that looks like a frame but has no line number is no frame
    (FRAMES + '    File "not/a/frame.py"\n' + "ValueError: bad draft\n", "/srv/sglang/srt/server.py", 305),
    # an escaped quote that opens on one line and closes on the next is no frame
    (FRAMES + '  File \\"/a\n  b.py\\", line 9\n' + "ValueError: bad draft\n", "/srv/sglang/srt/server.py", 305),
    # a frame in quotes a JSON logger escaped
    (FRAMES + '  File \\"/srv/sglang/srt/managers/scheduler.py\\", line 2708, in event_loop\n'
     + "ValueError: bad draft\n", "/srv/sglang/srt/managers/scheduler.py", 2708),
])
def test_a_traceback_names_its_innermost_frame(traceback, file, line):
    assert errors("Exit code 1\n" + traceback, 1) == [("traceback", "ValueError", "bad draft", file, line)]


def test_a_traceback_cut_in_its_frames_keeps_the_last_frame():
    assert errors(FRAMES, 1) == [("traceback", None, "traceback without an exception line (truncated output)",
                                  "/srv/sglang/srt/server.py", 305)]


def test_a_norm_flag_said_to_be_ignored_next_to_a_server_log():
    said = "SGLang's llama_eagle3.py ignores norm_before_residual in the draft config."
    assert [o.code for o in text_observations(decode_log() + "\n" + said)] == ["SD701"]
