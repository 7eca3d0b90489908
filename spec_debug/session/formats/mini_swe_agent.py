"""mini-swe-agent trajectories (SWE-agent/mini-swe-agent): ``{info, messages,
trajectory_format}``, chat messages in which each reply runs the one ``bash`` block it ends with
and the output comes back as a user message. Read by :mod:`formats.openai_chat`; this module
knows the observation and which command it reports on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from spec_debug.session.events import Event

_RETURNCODE = re.compile(r"^\s*<returncode>(-?\d+)</returncode>")
_OUTPUT = re.compile(r"<output>\n?(.*?)\n?</output>", re.DOTALL)
_BASH_BLOCK = re.compile(r"```(?:bash|sh|mswea_bash_command)[ \t]*\n(.*?)\n```"
                         r"|<mswea_bash_command>(.*?)</mswea_bash_command>", re.DOTALL)
"""The command of a reply: a ``bash`` block (mini-swe-agent 1.x), or since 2.0 the block its
text-based models ask for, fenced as ``mswea_bash_command`` or tagged
``<mswea_bash_command>`` (SWE-agent/mini-swe-agent ``src/minisweagent/models/
litellm_textbased_model.py`` ``action_regex``, ``config/benchmarks/swebench_xml.yaml``). Unknown
fences read as no command: each observation was a result of nothing."""


@dataclass(slots=True)
class Observation:
    text: str
    exit_code: int | None


def observation(role, text: str, extra: dict) -> Observation | None:
    """A command's output that mini-swe-agent (SWE-agent/mini-swe-agent) hands the model as a
    user (or tool) message: ``<returncode>N</returncode><output>…</output>``, and since its
    trajectory format 1.1 ``extra: {returncode, raw_output}`` beside it; the command is the one
    ``bash`` block of the reply before it (``extra.actions`` in 1.1). Read as a prompt, every
    output opened a phase of its own and no command was seen."""
    if role not in ("user", "tool"):
        return None
    code = extra.get("returncode")
    tagged = _RETURNCODE.match(text)
    if type(code) is not int and tagged is None:
        return None
    if type(code) is not int:
        code = int(tagged.group(1))
    raw = extra.get("raw_output")
    if isinstance(raw, str):
        return Observation(raw, code)
    output = _OUTPUT.search(text)
    return Observation(output.group(1) if output else text, code)


_SUBMIT = re.compile(r"""^\s*echo\s+['"]?(?:COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b""")
"""The command that ends a run: its output's first line is the marker, and what follows it is the
submission, which comes back as the last message instead of an observation (a ``user`` one in
1.x, ``role: exit`` in 2.x: SWE-agent/mini-swe-agent ``src/minisweagent/agents/default.py``,
``environments/local.py`` ``_check_finished``; ``tests/test_data/github_issue.traj.json``)."""


@dataclass(slots=True)
class ShownCommand:
    """The ``bash`` block of the last reply that made no tool call: the command an observation
    that follows reports on (mini-swe-agent's format; a block followed by no observation was
    only shown)."""

    seq: int = -1
    block: int = 0
    command: str | None = None
    timestamp: str | None = None

    def reply(self, seq: int, block: int, text: str, timestamp: str | None = None) -> None:
        blocks = [fenced or tagged for fenced, tagged in _BASH_BLOCK.findall(text)] \
            if "```" in text or "<mswea_bash_command>" in text else []
        self.seq, self.block, self.command = seq, block, (blocks[-1].strip() if blocks else None)
        self.timestamp = timestamp

    def submission(self, role, text: str) -> Observation | None:
        """The submission that answers the reply's submit command, as its output (no exit status
        is kept). Read as a message of its own, the patch was a prompt the person typed and the
        command that ended the run was never run."""
        if role in ("user", "exit") and self.command is not None and _SUBMIT.match(self.command):
            return Observation(text, None)
        return None

    def result(self, observed: Observation, event, call_names: dict, call_id: str | None) -> Iterator[Event]:
        if call_id is None:
            call_id = next(reversed(call_names), None) if call_names else None
        if self.command is not None:
            call_id = f"call-{self.seq}-shown"
            call = event("tool_call", "assistant", self.block, tool_name="bash", call_id=call_id,
                         command=self.command, text=self.command)
            call.seq = self.seq  # the reply's, not the observation's
            call.timestamp = self.timestamp or call.timestamp  # likewise (``extra.timestamp`` of each)
            call_names[call_id] = "bash"
            self.command = None
            yield call
        yield event("tool_result", "tool", call_id=call_id, text=observed.text, exit_code=observed.exit_code,
                    is_error=observed.exit_code not in (None, 0))
