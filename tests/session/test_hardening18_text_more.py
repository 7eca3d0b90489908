"""More terminal logs and issue threads as engineers paste them
(tests/session/data_hardening18_text/SOURCE.md).

Before: an issue comment's ``> `` quote of an earlier message was read as tool output (a quoted
traceback counted as a second error); a vLLM launch pasted indented, its flags on the next lines
without backslashes, gave no command (or its introduction, "vllm serve command:", as one); the
entries a ``history`` listing printed were its output, not the commands that ran before it; zsh's
``walters`` prompt (``me@gpu01:~/sglang>``) was no prompt, and the exit status a prompt shows
(``[1] me@gpu01:~/sglang>``) was lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import shell_history, text_log
from spec_debug.session.formats.common import Cursor

DATA = Path(__file__).parent / "data_hardening18_text"


def _events(path: Path) -> list[Event]:
    return list(text_log.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))


def _thread(tmp_path: Path, *names: str) -> Path:
    """The comments of one issue, one after the other, as a thread is copied."""
    path = tmp_path / "thread.md"
    path.write_text("\n".join((DATA / name).read_text(encoding="utf-8") for name in names), encoding="utf-8")
    return path


def test_a_reply_that_quotes_the_launch_command_runs_nothing_again(tmp_path: Path) -> None:
    # sgl-project/sglang issue #5491: liuteng answers with the launch command (quoting the
    # question), hebiao064 replies quoting both
    path = _thread(tmp_path, "sglang_5491_comment.md", "sglang_5491_quoted_reply.md")
    a = analyze_path(path)
    assert [c.command.split(" --", 1)[0] for c in a.commands] == ["python -m sglang.launch_server"]
    events = _events(path)
    quotes = [ev for ev in events if ev.raw_type == "quote"]
    assert [ev.text.splitlines()[0] for ev in quotes] == [
        "> Can u share ur command about how did u launch server?",
        "> > Can u share ur command about how did u launch server?"]
    assert "--enable-torch-compile" in quotes[1].text
    assert not [ev for ev in events if ev.kind == "tool_result" and "Can u share" in ev.text]


def test_a_quoted_shell_block_is_no_block_of_the_reply(tmp_path: Path) -> None:
    # sgl-project/sglang PR #1498: fengyang95 quotes the ```shell block of an earlier comment
    path = _thread(tmp_path, "sglang_1498_quoted_reply.md", "sglang_1498_shell_block.md")
    a = analyze_path(path)
    assert [c.command.split(" --", 1)[0] for c in a.commands] == ["python3 -m sglang.launch_server"]
    assert [ev.kind for ev in _events(path)][:1] == ["system"]


def test_a_quoted_traceback_is_not_a_second_error(tmp_path: Path) -> None:
    # sgl-project/sglang issue #13352's body, then a reply quoting its last lines the way
    # GitHub's "Quote reply" writes them ("> " before each line)
    body = (DATA / "sglang_13352_issue_body.md").read_text(encoding="utf-8")
    block = body[body.index("```  File"):body.index("list.```") + len("list.```")]
    path = tmp_path / "thread.md"
    path.write_text(body + "\n" + "".join(f"> {line}\n" for line in block.splitlines()) + "\nSame here.\n",
                    encoding="utf-8")
    a = analyze_path(path)
    assert [e.exception for e in a.errors] == ["RuntimeError"]


def test_an_indented_launch_whose_flags_go_on_without_backslashes_is_one_command() -> None:
    # vllm-project/vllm issue #26328: "vllm serve command:", then the command indented over five
    # lines with no backslash, between two pairs of fences
    a = analyze_path(DATA / "vllm_26328_issue_body.md")
    [launch] = a.commands
    assert launch.command.startswith("vllm serve /models/gpt-oss-120b --gpu-memory-utilization 0.92 ")
    assert "--reasoning-parser openai_gptoss --speculative-config '{\"model\": \"nvidia/gpt-oss-120b-Eagle3\"" \
        in launch.command
    assert launch.command.endswith("\"draft_tensor_parallel_size\":1}'")


def test_the_commands_a_history_listing_shows_ran_before_it() -> None:
    # c4cs/c4cs.github.io PR #134: "$ history | grep cd" and bash's list, the listing itself last
    a = analyze_path(DATA / "c4cs_134_history_grep.log")
    assert [c.command for c in a.commands] == ["cd /home/name/secrets", "cd topSecrets", "history | grep cd"]
    assert [c.seq for c in a.commands] == sorted(c.seq for c in a.commands)


@pytest.mark.parametrize(("command", "listing"), [
    ("history", True), ("history 20", True), ("history | grep sglang", True), ("fc -l", True),
    ("history_server --port 8000", False), ("history > cmds.txt", False), ("fc -s", False),
])
def test_what_prints_the_history_list(command: str, listing: bool) -> None:
    assert shell_history.is_listing(command) is listing


def test_the_status_a_prompt_shows_is_the_exit_code_of_the_command_before() -> None:
    # zsh's walters theme, "%(?..[%?] )%n@%m:%~> ": "[1] " only after a command that failed
    a = analyze_path(DATA / "zsh_walters_status.log")
    assert [(c.command.split(" --", 1)[0], c.host, c.exit_code) for c in a.commands] == [
        ("nvidia-smi", "gpu01", None),  # before any prompt showed a status: unknown
        ("SGLANG_ENABLE_SPEC_V2=1 SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python -m sglang.launch_server", "gpu01", 1),
        ("python -m sglang.check_env > /dev/null", "gpu01", 0),  # no output, and the next prompt shows no status
        ("exit", "gpu01", None),
    ]
    assert a.commands[1].is_error and not a.commands[2].is_error
    [err] = a.errors
    assert (err.exception, err.command_seq) == ("RuntimeError", a.commands[1].seq)


@pytest.mark.parametrize(("line", "status"), [
    ("[1] me@gpu01 ~/sglang % nvidia-smi", "1"),  # zsh "%(?..[%?] )%n@%m %~ %# "
    ("[130] me@gpu01:~/sglang$ tail -f server.log", "130"),
    ("[1] 48213", None),  # bash's note of a job sent to the background: no prompt
])
def test_a_status_before_the_prompt(line: str, status: str | None) -> None:
    m = text_log._prompt(line)
    assert (m.group("status") if m else None) == status
