"""A sub-agent whose lines the trunk holds inline (``isSidechain``, CLI 2.0.x; TRANSCRIPTS.md:
``sidechain_integrated.jsonl``, a Task spawn plus its sidechain lines in one file) is read once.

1. Its readings come before its report (the Task result), so the report's copy of them was
   kept as the parent's: each reading counted twice, the copy with no host. The copy is
   dropped, as it is when the agent's own file is read after the trunk.
2. The same agent's own ``agent-<id>.jsonl`` beside it (the merged file kept next to the CLI's
   files) said its prompt and final text again: calls and results were read once (by call id),
   but the prompt twice and each reading of its final text twice.
"""

from datetime import datetime, timedelta, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _write_agent, _Writer

SESSION = "8a1b0000-0000-4000-8000-0000000038e1"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
LOG = "Decode batch. #running-req: 1, gen throughput (token/s): 88.50, accept len: 3.10"
REPORT = "gpu01 decodes at 88.5 tok/s with accept length 3.1."


def _write(tmp_path, own_file: bool):
    trunk = _Writer(SESSION, None, START)
    trunk.prompt("Check the server on gpu01.")
    agent = _Writer(SESSION, "d4check", START + timedelta(minutes=1))
    agent.prompt("Read the server log on gpu01 and report the throughput.")
    agent.bash("ssh root@gpu01 'tail -n 1 /root/server.log'", LOG)
    agent.say(REPORT)
    trunk.lines += agent.lines  # inline, before the Task result, as the CLI wrote them
    trunk.spawn("d4check", "toolu_spawn_d4", "Check gpu01's server",
                "Read the server log on gpu01 and report the throughput.", REPORT, trunk=True)
    trunk.say("gpu01 is healthy.")
    (tmp_path / f"{SESSION}.jsonl").write_text("\n".join(trunk.lines) + "\n", encoding="utf-8")
    if own_file:
        sub = tmp_path / SESSION / "subagents"
        sub.mkdir(parents=True)
        _write_agent(sub, "d4check", agent, "toolu_spawn_d4", "Check gpu01's server")
    return analyze_path(tmp_path / f"{SESSION}.jsonl")


def _readings(a):
    return sorted((m.agent, m.name, m.value, m.host, m.source) for m in a.metrics)


EXPECTED = sorted([
    ("d4check", "throughput", 88.5, "gpu01", "output"), ("d4check", "accept_length", 3.1, "gpu01", "output"),
    ("d4check", "throughput", 88.5, "gpu01", "prose"), ("d4check", "accept_length", 3.1, "gpu01", "prose"),
])


def test_an_inline_sub_agents_report_does_not_count_its_readings_again(tmp_path):
    a = _write(tmp_path, own_file=False)
    assert _readings(a) == EXPECTED


def test_an_inline_sub_agent_with_its_own_file_too_is_read_once(tmp_path):
    a = _write(tmp_path, own_file=True)
    assert [(p.agent, p.text) for p in a.prompts] == [
        ("main", "Check the server on gpu01."),
        ("d4check", "Read the server log on gpu01 and report the throughput.")]
    assert _readings(a) == EXPECTED
    agent = next(x for x in a.agents if x["id"] == "d4check")
    assert (agent["events"], agent["tool_calls"]) == (4, 1)
