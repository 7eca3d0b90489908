"""A command killed with nothing printed (Claude Code's "Exit code 137" alone: the OOM killer, a
``kill -9`` of the server) was a signal error with an empty message: the JSON said ``"message":
""`` and the postmortem's timeline "SIGKILL: ". The status is the message."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors


def test_a_bare_signal_status_is_its_own_message() -> None:
    (error,) = extract_errors("Exit code 137", 137, True)
    assert (error.kind, error.exception, error.message) == ("signal", "SIGKILL", "exit code 137")


def test_a_signal_with_words_keeps_them() -> None:
    (error,) = extract_errors("Exit code 139\nSegmentation fault (core dumped)", 139, True)
    assert (error.exception, error.message) == ("SIGSEGV", "Segmentation fault (core dumped)")
    (error,) = extract_errors("Exit code 137\n[2026-03-02 10:00:05 TP0] Load weight begin. avail mem=78.50 GB", 137, True)
    assert (error.exception, error.message) == ("SIGKILL", "[2026-03-02 10:00:05 TP0] Load weight begin. avail mem=78.50 GB")
