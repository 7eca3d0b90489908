"""postmortem: with two hosts' rows in the impact table, each host's baseline is named with its host.

The session benchmarked the server without speculation and the EAGLE-3 one on gpu01 (90 and 54.8
tok/s) and on gpu02 (150 and 120.5), fixed both, and measured 171.2 and 265. SD501 compared each
host's runs with that host's baseline; the impact said only "Baseline without speculation: 150 tok/s
[msg 6]" under the table of both hosts' rows, which read as gpu01's baseline too (171.2 on gpu01
looked barely above it, where it is almost twice gpu01's 90).
"""

from __future__ import annotations

import html as html_lib
import re

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.test_hardening63_running_baseline_server import _session


def test_each_hosts_baseline_is_named_with_its_host(tmp_path):
    a = analyze_path(_session(tmp_path, "First the baseline without speculation on gpu01 (port 30001)."))
    md = render_postmortem(a, "md")
    assert "\nBaseline without speculation: 90 tok/s on gpu01 [[msg 2]](#msg-2); 150 tok/s on gpu02 " \
           "[[msg 6]](#msg-6).\n" in md, md
    page = render_postmortem(a, "html")
    [line] = [p for p in page.splitlines() if "Baseline without speculation" in p]
    assert html_lib.unescape(re.sub(r"<[^>]+>", "", line)) == \
        "Baseline without speculation: 90 tok/s on gpu01 [msg 2]; 150 tok/s on gpu02 [msg 6]."
    assert '<a href="#msg-2">[msg 2]</a>' in line and '<a href="#msg-6">[msg 6]</a>' in line
    # each link has its entry to land on
    assert 'id="msg-2"' in page and 'id="msg-6"' in page
    # the headline (the last host's) still names its own baseline
    assert "Throughput on gpu02 went from 120.5 tok/s [[msg 8]](#msg-8) to 265 tok/s [[msg 18]](#msg-18) against " \
           "a 150 tok/s baseline [[msg 6]](#msg-6)." in md, md


def test_one_host_keeps_the_one_line(tmp_path):
    """gpu01 alone: its baseline, with no host to tell apart."""
    a = analyze_path(_session(tmp_path, "First the baseline without speculation on gpu01 (port 30001)."))
    keep = {"gpu01"}
    a.metrics[:] = [m for m in a.metrics if m.host in keep]
    md = render_postmortem(a, "md")
    assert "\nBaseline without speculation: 90 tok/s [[msg 2]](#msg-2).\n" in md, md
