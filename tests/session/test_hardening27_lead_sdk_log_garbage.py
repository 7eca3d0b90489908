"""A printed Claude Agent SDK log is read without making garbage that only the cyclic collector
frees. Its lines were parsed with ast.literal_eval on every leaf, and each call of it builds
nested functions that refer to themselves (a reference cycle): ~30 cycles a line, freed only by
full collections, so the reader's memory grew with the file (10 MB log: 194 MB peak RSS, 50 MB:
near 1 GB) although the analysis keeps a bounded number of records."""

from __future__ import annotations

import gc

from spec_debug.session import analyze_path

ASSISTANT = ("[2026-01-31T19:31:00.138584+00:00] AssistantMessage(content=[TextBlock(text='Checking {n}.'), "
             "ToolUseBlock(id='toolu_{n}', name='Bash', input={{'command': 'ssh gpu01 nvidia-smi', "
             "'description': 'GPU state', 'timeout': -1, 'flags': (1, 2.5, None, True)}})], "
             "model='claude-sonnet-4-5', parent_tool_use_id=None, error=None)\n")
USER = ("[2026-01-31T19:31:02.000000+00:00] UserMessage(content=[ToolResultBlock(tool_use_id='toolu_{n}', "
        "content='decode 54.8 tok/s', is_error=False)], uuid='u-{n}', parent_tool_use_id=None)\n")


def test_reading_an_sdk_log_leaves_no_reference_cycles(tmp_path):
    path = tmp_path / "agent_run.log"
    path.write_text("".join(ASSISTANT.format(n=n) + USER.format(n=n) for n in range(200)))
    gc.collect()
    gc.disable()
    try:
        doc = analyze_path(path).to_json()
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert len(doc["commands"]) == 200 and doc["commands"][0]["host"] == "gpu01"
    assert unreachable < 100  # was ~12,000 (30 a line)
