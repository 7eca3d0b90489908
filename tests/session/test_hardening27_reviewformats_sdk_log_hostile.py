"""A printed Claude Agent SDK log is untrusted text parsed with :mod:`ast`: a line whose literal
holds an unhashable key or set member (``{[1]: 2}``, ``{1, [2]}``: a cut or hand-edited line)
raised TypeError out of ``ast.literal_eval`` and the whole analysis ended in a traceback. Such a
line is a broken line; the good lines around it are still read."""

from __future__ import annotations

from spec_debug.session import analyze_path

CALL = ("AssistantMessage(content=[ToolUseBlock(id='toolu_01', name='Bash', input={'command': 'nvidia-smi'})], "
        "model='claude-sonnet-4-5')\n")
RESULT = "UserMessage(content=[ToolResultBlock(tool_use_id='toolu_01', content='ok', is_error=False)])\n"


def test_unhashable_literals_are_broken_lines_not_a_traceback(tmp_path):
    path = tmp_path / "agent_run.log"
    path.write_text(CALL + "AssistantMessage(content=[TextBlock(text={[1]: 2})], model='m')\n"
                    + "AssistantMessage(content={1, [2]})\n" + "UserMessage(content={AssistantMessage(x=1): 2})\n"
                    + RESULT)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert session["broken_json"] == 3
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]


def test_deeply_nested_brackets_are_a_broken_line(tmp_path):
    path = tmp_path / "agent_run.log"
    path.write_text(CALL + "AssistantMessage(content=" + "[" * 5000 + "]" * 5000 + ")\n" + RESULT)
    (session,) = analyze_path(path).to_json()["sessions"]
    assert session["broken_json"] == 1
