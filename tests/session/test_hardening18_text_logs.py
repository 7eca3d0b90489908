"""Terminal logs and issue bodies as engineers paste them (tests/session/data_hardening18_text/SOURCE.md).

Before: a log whose prompt is oh-my-zsh's ``➜  ~`` or starship's ``❯`` was one block of prose (no
command, no error); the commands typed after an interactive ``ssh gpu01`` ran on no host; an
issue body's plain `````` block holding ``$ python3 -m sglang.launch_server`` or the bare launch
command (and its traceback in the next block) gave no command and no error."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening18_text"


def _commands(path: Path) -> list[tuple[str, str | None, bool]]:
    return [(c.command.split(" --", 1)[0], c.host, c.is_error) for c in analyze_path(path).commands]


def test_a_zsh_session_that_logs_into_gpu01_runs_its_commands_there() -> None:
    a = analyze_path(DATA / "zsh_ssh_gpu01.log")
    launch = ("SGLANG_ENABLE_SPEC_V2=1 SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python -m sglang.launch_server", "gpu01", True)
    assert [(c.command.split(" --", 1)[0], c.host, c.is_error) for c in a.commands] == [
        ("ssh gpu01", "gpu01", False),
        ("nvidia-smi", "gpu01", False),
        launch,
        ("exit", "gpu01", False),
        ("nvidia-smi", None, True),  # back on the laptop: "Connection to gpu01 closed."
    ]
    err, driver = a.errors
    assert (err.exception, err.host, err.command_seq) == ("RuntimeError", "gpu01", a.commands[2].seq)
    assert "Expected size 6 but got size 8" in err.message
    # the laptop's nvidia-smi cannot reach a driver: a GPU failure there, not on gpu01
    assert (driver.kind, driver.host) == ("cuda_error", None)
    assert driver.message.startswith("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver")


@pytest.mark.parametrize(("output", "code"), [
    ("Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.54", 18),
    ("No devices were found", 6),
    ("Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error", 255),
])
def test_nvidia_smi_that_reaches_no_gpu_is_a_gpu_failure(output: str, code: int) -> None:
    """What nvidia-smi prints after a driver upgrade without a reboot, with no GPU visible, and
    when a GPU fell off the bus: a failure of the GPU host, not a silent 'exit code N'."""
    from spec_debug.session.failures import extract_errors
    [err] = extract_errors(output, exit_code=code)
    assert (err.kind, err.message) == ("cuda_error", output.splitlines()[0])


@pytest.mark.parametrize(("prompt", "command", "host"), [
    ("➜  ~", "nvidia-smi", None),  # oh-my-zsh's default theme
    ("(py310) ➜  sglang git:(main) ✗", "python3 -m sglang.check_env", None),
    ("(chroma) (base) ➜  chroma git:(main)", "python3 x.py", None),
    ("➜  me@gpu01 ~/sglang git:(main) ✗", "nvidia-smi", "gpu01"),
    ("❯", "nvidia-smi", None),  # starship / pure on their own line
    ("~ via 🅒 ml ❯", "nvidia-smi", None),
    ("bash-5.1#", "ls /models", None),  # bash's own default in a container
    ("I have no name!@7c1d2e3f4a5b:/workspace$", "nvidia-smi", "7c1d2e3f4a5b"),  # docker run --user 1000
    ("me@gpu02 ~/work>", "hostname", "gpu02"),  # fish
    ("me@gpu01 ~/work $", "uname -n", "gpu01"),  # Gentoo's bash
])
def test_theme_and_container_prompts_are_prompts(tmp_path: Path, prompt: str, command: str, host: str | None) -> None:
    path = tmp_path / "session.log"
    path.write_text(f"{prompt} {command}\nsome output\n", encoding="utf-8")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [(command, host)]


def test_prose_with_an_arrow_is_no_command(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Open File ❯ Save and then check the logs.\n", encoding="utf-8")
    assert analyze_path(path).commands == []


def test_a_failed_login_leaves_the_commands_where_they_were(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("➜  ~ ssh gpu01\nssh: connect to host gpu01 port 22: Connection refused\n"
                    "➜  ~ ssh -N -L 30000:localhost:30000 gpu02\n^C\n➜  ~ hostname\nlaptop\n", encoding="utf-8")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [
        ("ssh gpu01", "gpu01"), ("ssh -N -L 30000:localhost:30000 gpu02", "gpu02"), ("hostname", None)]


def test_an_issue_body_one_line_block_and_its_traceback() -> None:
    """sgl-project/sglang#13352: ```cmd``` on one line, then a traceback opened after ``` and
    closed by ``` at the end of its last line."""
    a = analyze_path(DATA / "sglang_13352_issue_body.md")
    [launch] = a.commands
    assert launch.category == "launch_server" and launch.is_error
    assert launch.command.endswith("--speculative-eagle-topk 4 --disable-cuda-graph")
    [err] = a.errors
    assert err.exception == "RuntimeError" and err.message.startswith("Sizes of tensors must match")
    assert err.command_seq == launch.seq


def test_an_issue_body_plain_block_with_a_prompt() -> None:
    """sgl-project/sglang#8081: ``$ python3 -m sglang.launch_server ...`` in a plain block, then its log."""
    a = analyze_path(DATA / "sglang_8081_issue_body.md")
    [launch] = a.commands
    assert launch.command.startswith("python3 -m sglang.launch_server --trust-remote-code --model-path /home/jobuser/")
    assert launch.category == "launch_server"


def test_a_bare_launch_in_a_plain_block_is_one_command_with_its_flags(tmp_path: Path) -> None:
    """sgl-project/sglang#20148's reproduction: the launch command alone in a plain block, one flag a line."""
    path = tmp_path / "issue.md"
    path.write_text("Launch the server\n```\npython3 -m sglang.launch_server \\\n--model-path /model/Qwen3-14B \\\n"
                    "--speculative-algorithm EAGLE3 \\\n--speculative-draft-model-path /model/mx/eagle/qwen3-14b_eagle3 \\\n"
                    "--speculative-num-steps 1\n```\n\nthe output:\n```\nLoading safetensors checkpoint shards: 100%\n```\n",
                    encoding="utf-8")
    [launch] = analyze_path(path).commands
    assert launch.command == ("python3 -m sglang.launch_server --model-path /model/Qwen3-14B --speculative-algorithm EAGLE3"
                              " --speculative-draft-model-path /model/mx/eagle/qwen3-14b_eagle3 --speculative-num-steps 1")


def test_a_plain_block_of_output_after_a_command_stays_output(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("```bash\npip show vllm\n```\n```\npython 3.11 is what pip used\nVersion: 0.9.1\n```\n", encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == ["pip show vllm"]


def test_notebook_shell_lines_are_commands(tmp_path: Path) -> None:
    """``jupyter nbconvert --to markdown``: a code cell is a ``python`` block; ``!cmd`` runs in a
    shell (IPython "Running shell commands"); the output is an indented block after it."""
    path = tmp_path / "eagle3.md"
    path.write_text("```python\n!nvidia-smi --query-gpu=name --format=csv\nimport torch\n```\n\n"
                    "    name\n    NVIDIA H100 80GB HBM3\n\n```python\nx = 1 != 2\n```\n", encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == ["nvidia-smi --query-gpu=name --format=csv"]


def test_examples_in_a_numbered_transcript_stay_examples(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"
    path.write_text("[msg 1] assistant: you could run\n```\n$ nvidia-smi\n```\n", encoding="utf-8")
    assert analyze_path(path).commands == []


def test_commands_after_ssh_at_a_bare_dollar_prompt_ran_on_the_remote_host(tmp_path: Path) -> None:
    """``$`` prompts show no host: the login, ``exit`` and ssh's ``Connection to gpu01 closed.``
    say where the shell is; a nested login goes one deeper and Ctrl-D (no exit) comes back."""
    path = tmp_path / "session.log"
    path.write_text("$ ssh gpu01\nLast login: Sat Nov 15 09:12:01 2025 from 10.0.0.5\n"
                    "$ nvidia-smi --query-gpu=memory.used --format=csv\nmemory.used [MiB]\n71234 MiB\n"
                    "$ ssh -J bastion gpu02\n$ hostname\ngpu02\n$ exit\nlogout\nConnection to gpu02 closed.\n"
                    "$ df -h /models\n/dev/nvme0n1 3.5T 2.1T 1.4T 61% /models\nlogout\nConnection to gpu01 closed.\n"
                    "$ hostname\nlaptop\n", encoding="utf-8")
    assert [(c.command.split()[0], c.host) for c in analyze_path(path).commands] == [
        ("ssh", "gpu01"), ("nvidia-smi", "gpu01"), ("ssh", "gpu02"), ("hostname", "gpu02"), ("exit", "gpu02"),
        ("df", "gpu01"), ("hostname", None)]


# -- script(1)'s opening and closing lines ---------------------------------------------------------

def test_a_typescript_has_the_times_script_wrote() -> None:
    """util-linux ``term-utils/script.c`` ``log_start``/``log_close``: ``Script started on
    2025-08-18 10:02:11+00:00 [TERM=...]`` ... ``Script done on ... [COMMAND_EXIT_CODE="0"]``.
    Before, the session had no time at all."""
    [session] = analyze_path(Path(__file__).parent / "data_h8" / "formats" / "typescript_multiline.log").sessions
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2025-08-18T10:02:11Z", "2025-08-18T10:03:40Z")


def test_script_c_names_the_command_and_its_exit_status(tmp_path: Path) -> None:
    """``script -c CMD`` with no terminal writes ``[COMMAND="CMD" <not executed on terminal>]``
    and the command's status at the end: the launch is the command, it failed with 1."""
    path = tmp_path / "launch.typescript"
    path.write_text(
        'Script started on 2026-10-09 16:38:31+00:00 [COMMAND="python -m sglang.launch_server --model-path '
        'meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3" <not executed on terminal>]\n'
        "[2026-10-09 16:38:40] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct')\n"
        "\nScript done on 2026-10-09 16:39:02+00:00 [COMMAND_EXIT_CODE=\"1\"]\n", encoding="utf-8")
    a = analyze_path(path)
    [launch] = a.commands
    assert (launch.category, launch.exit_code, launch.is_error) == ("launch_server", 1, True)
    assert a.sessions[0]["first_timestamp"] == "2026-10-09T16:38:31Z"


@pytest.mark.parametrize(("line", "stamp"), [
    ("Script started on 2020-02-07 12:51:20-0500", "2020-02-07T17:51:20Z"),  # util-linux before 2.35
    ("Script started on Mon Aug 18 10:02:11 2025", "2025-08-18T10:02:11"),  # BSD / macOS script
    ("Script started on Mon 18 Aug 2025 10:02:11 AM UTC", "2025-08-18T10:02:11"),  # older util-linux, %c
])
def test_older_typescript_headers_give_the_start(tmp_path: Path, line: str, stamp: str) -> None:
    path = tmp_path / "typescript"
    path.write_text(f"{line}\n$ nvidia-smi\nNo devices were found\n", encoding="utf-8")
    a = analyze_path(path)
    assert a.sessions[0]["first_timestamp"] == stamp and [c.command for c in a.commands] == ["nvidia-smi"]


# -- shell history files --------------------------------------------------------------------------

def test_a_zsh_extended_history_is_its_commands_with_their_times() -> None:
    """9sako6/dotfiles ``.zsh_history``: each ``: <epoch>:<elapsed>;cmd`` is a command run at
    that time; a command of two lines (a backslash before the break) is one entry. Before, the
    file was one block of prose: no command, no time."""
    a = analyze_path(DATA / "zsh_history_9sako6")
    assert len(a.commands) == 11
    assert a.commands[3].command == ('git config --global user.email "31821663+9sako6@users.noreply.github.com"\n'
                                     'git config --global user.name "9sako6"')
    assert [c.timestamp for c in a.commands[:2]] == ["2018-09-28T19:43:24Z", "2018-09-28T19:44:11Z"]
    assert a.errors == []


def test_a_bash_history_with_histtimeformat_stamps(tmp_path: Path) -> None:
    """``HISTTIMEFORMAT`` set: ``#<epoch>`` before each entry (bash(1), HISTORY; the shape
    seanbreckenridge/HPI's bash history parser documents); a launch typed over several lines
    with ``lithist`` keeps its lines until the next stamp."""
    path = tmp_path / "gpu01_history"
    path.write_text("#1755590000\nnvidia-smi\n#1755590100\npython -m sglang.launch_server --model-path "
                    "meta-llama/Llama-3.1-8B-Instruct \\\n  --speculative-algorithm EAGLE3 \\\n"
                    "  --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B\n"
                    "#1755590200\npkill -f sglang\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.category, c.timestamp) for c in a.commands] == [
        ("gpu_status", "2025-08-19T07:53:20Z"), ("launch_server", "2025-08-19T07:55:00Z"),
        ("stop_process", "2025-08-19T07:56:40Z")]
    assert a.commands[1].command == ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                                     "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
                                     "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B")


def test_a_plain_bash_history_file_is_one_command_a_line(tmp_path: Path) -> None:
    path = tmp_path / ".bash_history"
    path.write_text("nvidia-smi\nssh gpu01 nvidia-smi\ncurl -s localhost:30000/health\n", encoding="utf-8")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [
        ("nvidia-smi", None), ("ssh gpu01 nvidia-smi", "gpu01"), ("curl -s localhost:30000/health", None)]


def test_a_note_with_a_few_hash_numbers_is_no_history(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Run 3 of the sweep\n#12345678901\nthe draft accepted fewer tokens\nthen it recovered\n"
                    "and again\nand more prose\n", encoding="utf-8")
    assert analyze_path(path).commands == []


def test_a_shell_block_with_a_bare_launch_is_that_command() -> None:
    """sgl-project/sglang#1498: ```shell with the launch command and no prompt. Before: none."""
    [launch] = analyze_path(DATA / "sglang_1498_shell_block.md").commands
    assert launch.category == "launch_server" and launch.command.endswith("--speculative-algorithm EAGLE >> server.log 2>&1")


def test_a_bash_block_of_two_benchmark_runs_is_two_commands() -> None:
    """SafeAILab/EAGLE#298: the launch, then a bash block holding the baseline and the EAGLE
    mtbench runs. Before, the two runs were read as output of the launch."""
    a = analyze_path(DATA / "eagle_298_issue_body.md")
    assert [(c.category, c.command.split(" --", 1)[0]) for c in a.commands] == [
        ("launch_server", "python3 -m sglang.launch_server"),
        ("benchmark", "python bench_sglang.py"), ("benchmark", "python bench_sglang_eagle.py")]


def test_a_shell_block_of_a_command_and_its_log_stays_one_command(tmp_path: Path) -> None:
    path = tmp_path / "issue.md"
    path.write_text("```shell\npython3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3\n"
                    "[2025-08-18 10:02:19] server_args=ServerArgs(model_path='m')\npython3: can't open file 'x'\n"
                    "python -m sglang.launch_server --help\n```\n", encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == [
        "python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"]


def test_leaving_a_root_shell_or_a_container_stays_on_the_remote_host(tmp_path: Path) -> None:
    """``sudo -i`` and ``docker exec -it sglang bash`` open shells on gpu01 that ``exit`` leaves:
    the commands after them still ran on gpu01; a refused ``sudo -i`` opened nothing."""
    path = tmp_path / "session.log"
    path.write_text("$ ssh gpu01\n$ sudo -i\n$ nvidia-smi -r -i 0\nGPU 00000000:3B:00.0 was successfully reset.\n"
                    "$ exit\nlogout\n$ docker exec -it sglang bash\nroot@a1b2c3d4e5f6:/sgl-workspace# ls /models\n"
                    "Llama-3.1-8B-Instruct\nroot@a1b2c3d4e5f6:/sgl-workspace# exit\nexit\n$ sudo -i\n"
                    "sudo: a password is required\n$ df -h /models\n/dev/nvme0n1 3.5T 2.1T 1.4T 61% /models\n"
                    "$ exit\nlogout\nConnection to gpu01 closed.\n$ hostname\nlaptop\n", encoding="utf-8")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [
        ("ssh gpu01", "gpu01"), ("sudo -i", "gpu01"), ("nvidia-smi -r -i 0", "gpu01"), ("exit", "gpu01"),
        ("docker exec -it sglang bash", "gpu01"), ("ls /models", "gpu01"), ("exit", "gpu01"),  # in docker:sglang
        ("sudo -i", "gpu01"), ("df -h /models", "gpu01"), ("exit", "gpu01"), ("hostname", None)]


# -- a command fixed in the middle of the line ----------------------------------------------------

def test_a_command_edited_mid_line_reads_as_the_terminal_showed_it() -> None:
    """A real typescript (bash 5.2 under util-linux script): the launch typed, a "1" inserted
    with readline's ``ESC[1@``, an "o" deleted with ``ESC[1P``, the cursor moved with ``ESC[C``.
    Before, those sequences were dropped, so the command read ``--speculativ --tp 210ps 3``; the
    ``script -c`` header was read up to its last quote (``bash ... LINES="50``); and python's
    one-line refusal (wrong virtualenv) was no error."""
    a = analyze_path(DATA / "typescript_readline_edit.log")
    assert [(c.command, c.host) for c in a.commands] == [
        ("bash --norc --noprofile -i", None), ('PS1="me@gpu01:\\w\\$ "', None),
        ("python -m sglang.launch_server --speculative-num-s1teps 3 --prt 30000 --tp 2", "gpu01"), ("exit", "gpu01")]
    [err] = a.errors
    assert (err.exception, err.message, err.command_seq) == ("ModuleNotFoundError", "No module named 'sglang'",
                                                             a.commands[2].seq)


@pytest.mark.parametrize(("output", "exception", "message"), [
    ("/usr/bin/python3: No module named sglang", "ModuleNotFoundError", "No module named sglang"),
    ("python3: can't open file '/root/bench_sglang_eagle.py': [Errno 2] No such file or directory",
     "FileNotFoundError", "can't open file '/root/bench_sglang_eagle.py': [Errno 2] No such file or directory"),
])
def test_python_refusing_to_start_is_an_error(tmp_path: Path, output: str, exception: str, message: str) -> None:
    path = tmp_path / "session.log"
    path.write_text(f"$ python3 -m sglang.bench_serving --port 30000\n{output}\n", encoding="utf-8")
    [err] = analyze_path(path).errors
    assert (err.exception, err.message) == (exception, message)


# -- the launch command as a line of prose --------------------------------------------------------

def test_a_launch_pasted_as_prose_is_the_command_with_all_its_flags() -> None:
    """sgl-project/sglang#5491: the launch written in a comment, no block, continued with
    backslashes. Before: no command."""
    [launch] = analyze_path(DATA / "sglang_5491_comment.md").commands
    assert launch.category == "launch_server"
    assert "--speculative-eagle-topk 2 --speculative-num-draft-tokens 8" in launch.command
    assert launch.command.endswith("--max-running-requests 100")


def test_a_launch_pasted_as_prose_owns_the_log_after_it() -> None:
    """sgl-project/sglang#5448: "run command :" then the launch, "the bug:" then the log: the
    scheduler's death is the launch's failure."""
    a = analyze_path(DATA / "sglang_5448_issue_body.md")
    [launch] = a.commands
    assert launch.command.startswith("CUDA_VISIBLE_DEVICES=0,1,2,3 python3 -m sglang.launch_server")
    assert launch.is_error and {e.command_seq for e in a.errors} == {launch.seq}
    assert any(e.exception == "SIGQUIT" for e in a.errors)


def test_a_launch_command_printed_in_a_command_output_is_no_new_command(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("$ cat run_eagle3.sh\npython3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3\n"
                    "$ hostname\ngpu01\n", encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == ["cat run_eagle3.sh", "hostname"]
