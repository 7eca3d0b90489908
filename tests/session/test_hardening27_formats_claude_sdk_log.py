"""A log of the Claude Agent SDK's messages as Python prints them (``print(message)`` of each
message ``query()`` yields, often after a ``[timestamp]``: the dataclass reprs of
anthropics/claude-agent-sdk-python ``types.py``) is read as the stream-json it was made from: a
ToolUseBlock a call, its ToolResultBlock the result. Before: a text log with no command and no
error. The lines are shaped as SDK session loggers' tests quote them."""

from __future__ import annotations

from spec_debug.session import analyze_path

LOG = """\
starting run
[2026-01-31T19:30:58.001000+00:00] SystemMessage(subtype='init', data={'type': 'system', 'subtype': 'init', \
'cwd': '/w', 'session_id': 'b7e1', 'tools': ['Bash', 'Read'], 'model': 'claude-sonnet-4-5-20250929'})
[2026-01-31T19:31:00.138584+00:00] AssistantMessage(content=[TextBlock(text="I'll check the GPU."), \
ToolUseBlock(id='toolu_01Ut', name='Bash', input={'command': 'nvidia-smi', 'description': 'GPU state'})], \
model='claude-sonnet-4-5-20250929', parent_tool_use_id=None, error=None)
[2026-01-31T19:31:02.000000+00:00] UserMessage(content=[ToolResultBlock(tool_use_id='toolu_01Ut', \
content="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", is_error=True)], \
uuid='u-1', parent_tool_use_id=None)
[2026-01-31T19:31:03.000000+00:00] AssistantMessage(content=[ToolUseBlock(id='toolu_02Ab', name='Bash', \
input={'command': 'ls /dev/nvidia*'})], model='claude-sonnet-4-5-20250929', parent_tool_use_id=None)
[2026-01-31T19:31:04.000000+00:00] UserMessage(content=[{'tool_use_id': 'toolu_02Ab', 'type': 'tool_result', \
'content': '/dev/nvidia0', 'is_error': False}])
[2026-01-31T19:31:05.000000+00:00] AssistantMessage(content=[TextBlock(text='cut by a crash
[2026-01-31T19:31:06.000000+00:00] ResultMessage(subtype='success', duration_ms=7000, is_error=False, \
num_turns=2, session_id='b7e1', total_cost_usd=0.01, usage={'input_tokens': 6}, result='The driver is not loaded.')
"""


def test_a_printed_sdk_message_log_is_read_as_its_stream(tmp_path):
    path = tmp_path / "agent_run.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["first_timestamp"], session["broken_json"]) == ("2026-01-31T19:30:58.001000+00:00", 1)
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("nvidia-smi", True), ("ls /dev/nvidia*", False)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_error"]


def test_one_quoted_sdk_line_in_a_note_is_still_a_text_log(tmp_path):
    path = tmp_path / "note.md"
    path.write_text("The SDK printed:\n\n" + LOG.splitlines()[2] + "\n\nand then hung.\n")
    (session,) = analyze_path(path).to_json()["sessions"]
    assert session["events"] >= 1 and session["broken_json"] == 0


def test_an_assistant_message_with_an_api_error_is_an_error(tmp_path):
    path = tmp_path / "agent_run.log"
    path.write_text(LOG.splitlines()[1] + "\n" + "AssistantMessage(content=[TextBlock(text='API Error: Rate limit "
                    "reached')], model='<synthetic>', parent_tool_use_id=None, error='rate_limit')\n")
    assert [e["kind"] for e in analyze_path(path).to_json()["errors"]] == ["agent_error"]


def test_messages_logged_by_python_logging_are_read(tmp_path):
    path = tmp_path / "agent.log"
    lines = [line for line in LOG.splitlines() if line.startswith("[") and "cut by a crash" not in line]
    path.write_text("".join("2026-01-31 19:31:00,138 INFO agent: " + line.split("] ", 1)[1] + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["first_timestamp"] == "2026-01-31T19:31:00.138"
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi", "ls /dev/nvidia*"]
