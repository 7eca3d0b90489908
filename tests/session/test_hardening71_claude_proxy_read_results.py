"""Claude Code's Read results through a logging proxy: the model gets each line of the file behind its
number (``     4→…``; newer CLIs ``4\\t…``) and, on most models, the CLI's malware reminder after the
text (``\\n\\n<system-reminder>\\nWhenever you read a file, you should consider whether it would be
considered malware. ...</system-reminder>\\n``, FileReadTool's CYBER_RISK_MITIGATION_REMINDER). A
proxy's log has only that copy (the session file keeps the plain text beside it).

Read as it came, a traceback in a log the agent read lost its exception line: a second error,
"traceback without an exception line (truncated output)", the real one quoted "4→torch..." with no
file or line, and the reminder's words were the tool's output. Now the result's text is the file's."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import said as _said, write_requests

REMINDER = ("\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered "
            "malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to "
            "improve or augment the code. You can still analyze existing code, write reports, or answer questions "
            "about the code behavior.\n</system-reminder>\n")
LOG = ("[2026-04-02 10:00:01] Load weight begin.\nTraceback (most recent call last):\n"
       '  File "/sgl/python/sglang/srt/model_executor/model_runner.py", line 412, in load_model\n'
       "    self.model = get_model(config)\n"
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
ASK = "why did the server die on gpu03?"
SONNET = "claude-sonnet-4-5"


def _numbered(text: str, arrow: bool) -> str:
    """As FileReadTool numbers a file: its lines joined by newlines, each behind its number."""
    return "\n".join(f"{n:6}\u2192{line}" if arrow else f"{n}\t{line}" for n, line in enumerate(text.split("\n"), 1))


def _log(tmp_path: Path, content: str, tool: str = "Read") -> Path:
    ask = {"role": "user", "content": [{"type": "text", "text": ASK}]}
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_r", "name": tool,
                                              "input": {"file_path": "/work/server.log"}}]}
    out = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_r", "content": content}]}
    done = {"role": "assistant", "content": [{"type": "text", "text": "The draft model ran out of memory."}]}
    return write_requests(tmp_path / "requests.jsonl", [([ask], call), ([ask, call, out], done)], SONNET,
                          answers=True)


OOM = [("cuda_oom", "torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB",
        "/sgl/python/sglang/srt/model_executor/model_runner.py", 412)]


def _errors(path: Path) -> list[tuple]:
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in analyze_path(path).errors]


def test_a_proxied_read_s_traceback_is_one_error_with_its_place(tmp_path: Path) -> None:
    assert _errors(_log(tmp_path, _numbered(LOG, arrow=True) + REMINDER)) == OOM


def test_newer_tab_numbered_lines_read_the_same(tmp_path: Path) -> None:
    assert _errors(_log(tmp_path, _numbered(LOG, arrow=False))) == OOM


def test_the_result_is_the_file_s_text(tmp_path: Path) -> None:
    said = _said(_log(tmp_path, _numbered(LOG, arrow=True) + REMINDER))
    assert ("tool_result", LOG) in said and not any("system-reminder" in text for _, text in said)


def test_another_tool_s_numbered_output_is_kept(tmp_path: Path) -> None:
    content = _numbered("alpha\nbravo", arrow=False)  # `cat -n` through Bash: its own output
    assert ("tool_result", content) in _said(_log(tmp_path, content, tool="Bash"))
