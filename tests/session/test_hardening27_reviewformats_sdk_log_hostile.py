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


TERMINAL = """\
$ python run_agent.py
SystemMessage(subtype='init', data={'type': 'system', 'subtype': 'init', 'cwd': '/w', 'session_id': 'b7e1'})
""" + CALL + RESULT + """\
ResultMessage(subtype='success', duration_ms=7000, is_error=False, num_turns=2, session_id='b7e1', result='done')
$ python3 -m vllm.entrypoints.openai.api_server --model m --speculative-config '{"method": "eagle3"}'
Traceback (most recent call last):
  File "/w/serve.py", line 1, in <module>
RuntimeError: CUDA error: out of memory
"""


def test_the_shell_around_printed_sdk_messages_is_still_read(tmp_path):
    # A terminal capture: the script's messages, then a server launch that failed. Read as SDK
    # messages alone, the launch and its CUDA error were lost (a plain text log before the SDK reader).
    path = tmp_path / "terminal.log"
    path.write_text(TERMINAL)
    doc = analyze_path(path).to_json()
    commands = [c["command"].split()[0] for c in doc["commands"]]
    assert sorted(commands) == ["nvidia-smi", "python", "python3"]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]


def test_messages_logged_with_logging_basic_config_are_read(tmp_path):
    # logging.basicConfig()'s default format, %(levelname)s:%(name)s:%(message)s (CPython
    # Lib/logging/__init__.py BASIC_FORMAT): INFO:agent:AssistantMessage(...). Was a text log, no command.
    path = tmp_path / "agent.log"
    path.write_text("INFO:agent:" + CALL + "INFO:agent:" + RESULT.replace("'ok', is_error=False", "'boom', is_error=True"))
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("nvidia-smi", True)]
