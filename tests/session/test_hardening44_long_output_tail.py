"""A terminal log whose command printed more than a body keeps (a launch that logged 2 MB of
decode batches, then died): the body was cut after its first MB, so the traceback that ended the
launch was lost, no error was found and the launch did not read as failed. The JSON formats keep
a whole output; a terminal log now keeps the last lines too."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.formats.text_log import MAX_BODY_CHARS
from spec_debug.session.sources import discover, iter_events

_BATCH = "[2026-11-01 10:00:00] Decode batch. #running-req: 1, #token: {}, accept len: 2.10, gen throughput (token/s): 95.0"


def test_the_traceback_at_the_end_of_a_long_output_is_found(tmp_path: Path) -> None:
    batches = [_BATCH.format(n) for n in range(MAX_BODY_CHARS // len(_BATCH) * 2)]
    path = tmp_path / "gpu01.log"
    path.write_text("\n".join([
        "root@gpu01:~# python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3",
        *batches,
        "Traceback (most recent call last):",
        '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 88, in forward',
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "root@gpu01:~# nvidia-smi",
        "| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4 |",
    ]) + "\n")
    a = analyze_path(path)
    assert [(c.command.split()[0], c.host, c.is_error) for c in a.commands] == [
        ("python", "gpu01", True), ("nvidia-smi", "gpu01", False)]
    assert [(e.kind, e.host, e.command_seq, e.source_line) for e in a.errors] == [
        ("cuda_error", "gpu01", 0, 2)]  # the output opens on line 2
    (source,) = discover(path)
    output = next(e.text for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result")
    kept = output.splitlines()
    assert kept[0] == batches[0] and kept[-1].startswith("RuntimeError: CUDA error")
    assert any(line.startswith("[… ") and line.endswith(" lines left out …]") for line in kept)
    assert len(output) < MAX_BODY_CHARS * 2


def test_a_cline_exports_long_tool_output_keeps_its_end(tmp_path: Path) -> None:
    # Cline's export (cline/cline src/integrations/misc/export-markdown.ts): a block was cut after
    # its first MB too (formats.marked_markdown), the launch's traceback with it
    batches = "\n".join(_BATCH.format(n) for n in range(MAX_BODY_CHARS // len(_BATCH) * 2))
    path = tmp_path / "cline_task_jan-20-2026_3-04-01-pm.md"
    path.write_text("\n\n---\n\n".join([
        "**User:**\n\n<task>\nwhy does the eagle3 launch on gpu01 die?\n</task>",
        "**Assistant:**\n\n[Tool Use: execute_command]\nCommand: ssh gpu01 cat /var/log/sglang.log\nCwd: .",
        "**User:**\n\n[Tool]\nCommand executed in terminal within working directory '/w'. Exit code: 0\nOutput:\n"
        + batches + "\nTraceback (most recent call last):\n"
        '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 88, in forward\n'
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "**Assistant:**\n\nThe draft worker hit an illegal memory access.",
    ]) + "\n\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [("ssh gpu01 cat /var/log/sglang.log", "gpu01")]
    assert [(e.kind, e.host, e.command_seq) for e in a.errors] == [("cuda_error", "gpu01", a.commands[0].seq)]
