"""The postmortem's counts take the noun in the number they need: a session with one command
and one error said "1 session(s) and 1 agent(s): 1 tool calls, 1 errors, ... 0 coded
finding(s)" in its summary and "(2 events, 1 commands, 1 errors)" for its phase."""

import re

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

_LOG = ("$ python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3\n"
        "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")


def test_one_of_each_is_said_in_the_singular(tmp_path):
    log = tmp_path / "one.log"
    log.write_text(_LOG)
    analysis = analyze_path(log)
    md, html = render_postmortem(analysis, "md"), render_postmortem(analysis, "html")
    assert "2 events from 1 session and 1 agent: 1 tool call, 1 error, 0 changes of approach, " \
           "0 coded findings." in md
    assert "(2 events, 1 command, 1 error)" in md and "(2 events, 1 command, 1 error)" in html
    assert re.findall(r"\b1 (?:events|commands|errors|tool calls|sessions|agents)\b|\(s\)", md + html) == []
