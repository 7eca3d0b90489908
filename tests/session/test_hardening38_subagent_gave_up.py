"""A sub-agent whose every call failed and whose report says it could not do the task failed,
though the parent's Task result says ``completed``.

Claude Code's ``toolUseResult.status`` is "completed" whenever the sub-agent returned a final
message: a sub-agent whose two ``ssh gpu01`` calls were refused and which reported "I was unable
to read the server log" was ``completed``, and the postmortem's What went wrong did not name it
(tokentelemetry PR #370: an agent whose every call failed is ``failed``; AgentTree.finish did so
only where no status was given). A report that states a finding ("the server failed to start"),
or an agent one of whose calls worked, stays ``completed``.
"""

from datetime import datetime, timedelta, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _write_agent, _Writer

SESSION = "8a1b0000-0000-4000-8000-0000000038d1"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
REFUSED = "ssh: connect to host gpu01 port 22: Connection refused"
TAIL = "ssh root@gpu01 'tail -n 50 /root/server.log'"


def _analyze(tmp_path, runs: list[tuple[str, str, int]], report: str):
    trunk = _Writer(SESSION, None, START)
    trunk.prompt("Check the server on gpu01.")
    trunk.spawn("d4check", "toolu_spawn_d4", "Check gpu01's server", "Read the server log on gpu01.",
                report, trunk=True)
    trunk.say("Noted.")
    (tmp_path / f"{SESSION}.jsonl").write_text("\n".join(trunk.lines) + "\n", encoding="utf-8")
    sub = tmp_path / SESSION / "subagents"
    sub.mkdir(parents=True)
    agent = _Writer(SESSION, "d4check", START + timedelta(minutes=1))
    agent.prompt("Read the server log on gpu01.")
    for command, output, exit_code in runs:
        agent.bash(command, output, exit_code=exit_code)
    agent.say(report)
    _write_agent(sub, "d4check", agent, "toolu_spawn_d4", "Check gpu01's server")
    a = analyze_path(tmp_path / f"{SESSION}.jsonl")
    return a, next(x for x in a.agents if x["id"] == "d4check")


def test_a_sub_agent_that_could_do_nothing_and_says_so_failed(tmp_path):
    a, agent = _analyze(tmp_path, [(TAIL, REFUSED, 255), (TAIL, REFUSED, 255)],
                        "I was unable to read the server log: ssh to gpu01 was refused both times.")
    assert (agent["status"], agent["tool_calls"], agent["failed_calls"]) == ("failed", 2, 2)
    assert "Sub-agent d4check failed (spawned by toolu_spawn_d4)." in postmortem_view(a)["went_wrong"]


def test_other_ways_of_saying_it(tmp_path):
    for i, report in enumerate(["I couldn't reach gpu01, so the log is unread.",
                                "Unable to read the log: gpu01 refuses ssh.",
                                "Both attempts were refused. I'm not able to read the log from here."]):
        folder = tmp_path / str(i)
        folder.mkdir()
        _, agent = _analyze(folder, [(TAIL, REFUSED, 255)], report)
        assert agent["status"] == "failed", report


def test_a_report_of_what_failed_is_a_finding_not_a_failure(tmp_path):
    """Every launch the agent tried exited 1, and that is what it was asked to find out."""
    launch = "ssh root@gpu01 'python -m sglang.launch_server --model-path /m --port 30000'"
    _, agent = _analyze(tmp_path, [(launch, "torch.OutOfMemoryError: CUDA out of memory.", 1)],
                        "The server failed to start: CUDA runs out of memory while loading the draft.")
    assert agent["status"] == "completed"


def test_an_agent_one_of_whose_calls_worked_completed(tmp_path):
    _, agent = _analyze(tmp_path, [(TAIL, REFUSED, 255), ("ssh root@gpu01 uptime", "up 3 days", 0)],
                        "I could not read the log, but gpu01 is up.")
    assert agent["status"] == "completed"
