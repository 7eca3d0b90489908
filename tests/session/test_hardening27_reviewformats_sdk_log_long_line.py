"""Every text log's first 200 lines are tried as a printed Claude Agent SDK log. A logging head's
time zone was matched unbounded (``\\S*``), so a long line that starts with a date and has no
space (a timestamped base64 or minified dump) took seconds to refuse: 2.2 s for 200,000
characters, quadratic backtracking. The zone is a few characters."""

from __future__ import annotations

import time

from spec_debug.session.formats import claude_sdk_log


def test_a_long_dated_line_is_refused_at_once():
    head = ["2026-01-31T19:31:00.138Z" + "QUJD" * 50_000] * 5
    started = time.thread_time()
    assert not claude_sdk_log.looks_like(head)
    assert time.thread_time() - started < 1.0  # was about 11 s


def test_a_logging_head_with_its_zone_is_still_a_message_line():
    line = "2026-01-31T19:31:00.138584+00:00 INFO agent: AssistantMessage(content=[TextBlock(text='hi')])"
    assert claude_sdk_log.looks_like([line, line])
