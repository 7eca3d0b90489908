"""Transcript shapes the readers got wrong (hardening round 9).

The data files under ``data_h9/`` are real-shaped: their sources are cited where each is read;
names, hosts and outputs are ours.
"""

from __future__ import annotations

import random
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

DATA = Path(__file__).resolve().parent / "data_h9"


def _events(path: Path) -> list:
    (source,) = discover(path, None)
    return list(iter_events(source, ReadStats(), AgentTree()))


# -- plain-text logs in a legacy code page ----------------------------------------------------


def test_a_cp1252_traceback_keeps_its_exception_line():
    """A terminal log written by a non-UTF-8 terminal (cmd.exe redirects in the console's code
    page; a Latin-1 locale): one byte per accented letter. The exception line
    ``ValueError: température élevée à 95°C`` has 6 such bytes in 37; it was dropped as binary,
    so the traceback read as "traceback without an exception line". Now every line is kept,
    each stray byte as U+FFFD."""
    doc = analyze_path(DATA / "train_cp1252.log").to_json()
    assert doc["stats"]["binary"] == 0 and doc["stats"]["lines_skipped"] == 0
    assert [(c["seq"], c["command"]) for c in doc["commands"]] == [
        (0, "ssh gpu01 python3 /root/train_eagle3.py --draft /donn\ufffdes/eagle3"), (1, "nvidia-smi -L")]
    assert [(e["seq"], e["exception"], e["message"], e["file"], e["line"]) for e in doc["errors"]] == [
        (0, "ValueError", "temp\ufffdrature \ufffdlev\ufffde \ufffd 95\ufffdC", "/root/train_eagle3.py", 17)]


def test_random_bytes_in_a_log_are_still_binary(tmp_path):
    """Random bytes (a binary file cat'ed to the terminal) stay binary: about half their bytes
    are >= 0x80 and one in ten is a C0 control, which no code-page text has."""
    rng = random.Random(9)
    garbage = bytes(rng.randrange(256) for _ in range(16 * 1024))
    path = tmp_path / "gpu01.log"
    path.write_bytes(b"root@gpu01:~# cat /usr/bin/true\n" + garbage + b"\nroot@gpu01:~# echo done\ndone\n")
    doc = analyze_path(path).to_json()
    garbage_lines = garbage.count(b"\n") + 1
    assert doc["stats"]["binary"] >= 0.9 * garbage_lines
    assert [c["command"] for c in doc["commands"]][-1] == "echo done"


# -- Claude Code prompts that start with the CLI's reminder -------------------------------------


def test_a_prompt_after_a_system_reminder_is_the_persons_prompt():
    """The CLI puts ``<system-reminder>...</system-reminder>`` blocks (CLAUDE.md context, a
    hook's additionalContext, the files read; the tag as Piebald-AI/claude-code-system-prompts
    issue #9 shows it injected into message content) before what the person typed, in the same
    string or text block. The whole text was read as the CLI's (kind ``system``), so the
    session had no first prompt. Now the typed text is the prompt; a reminder alone stays the
    CLI's."""
    path = DATA / "claude_reminder_prompt.jsonl"
    events = _events(path)
    assert [(e.seq, e.block, e.kind, e.role, e.text[:40]) for e in events if e.role == "user"] == [
        (0, 0, "prompt", "user", "accept length fell to 1.2 after the SGLa"),
        (3, 0, "system", "user", "<system-reminder>\nThe TodoWrite tool has"),
        (3, 1, "prompt", "user", "compare the draft config with the target"),
    ]
    a = analyze_path(path)
    assert [(p.seq, p.text) for p in a.prompts] == [
        (0, "accept length fell to 1.2 after the SGLang upgrade on gpu01, find out why"),
        (3, "compare the draft config with the target's hidden size")]
