"""A redirection's file descriptor (`2>&1`, `2>/dev/null`) is part of its operator, not a word.

Before: the shared splitter (spec_debug/shell_split.py) read the `2` of `2>&1` as a word of its
own, and the analyzer's simple commands kept every redirection's file as an argument too. An
agent's `pip install -U vllm 2>/dev/null` installed the packages "vllm", "2" and "null";
`pip show sglang 2>&1 | head -3` checked the versions of "sglang", "2" and "1"; `nvcc --version
2>&1` was no check of the toolchain at all (its argv was three words, not two); and `python3
<<'PY' 2>&1` that rewrote a checkpoint's config.json was read as a python3 running a script
named "1", no change to the host. Now: the descriptor is the operator's (`2>`, `2>&`, bash(1),
REDIRECTION), a redirection's file is no argument, and each of those reads as the command it
is. `cut -f 2 > out` (a space before the `>`) keeps its 2 an argument, as bash does.
"""

from __future__ import annotations

from spec_debug.secret_commands import prints_secret_value
from spec_debug.session.host_changes import changes_host
from spec_debug.session.shell_words import pipelines, simple_commands, ssh_reads_local_file
from spec_debug.session.version_checks import checked_packages, installed_packages
from spec_debug.shell_split import shell_words


def test_descriptor_is_part_of_the_operator():
    assert shell_words("python3 x.py 2>&1 | tail -n 3") == [
        ("python3", False), ("x.py", False), ("2>&", True), ("1", False), ("|", True),
        ("tail", False), ("-n", False), ("3", False)]
    assert shell_words("a 2>>err.log") == [("a", False), ("2>>", True), ("err.log", False)]
    from spec_debug.shell_split import redirection

    assert redirection("2>&") == ("2", ">&")
    assert redirection(">") == ("", ">")


def test_spaced_or_quoted_number_stays_a_word():
    assert shell_words("cut -f 2 > out.txt") == [
        ("cut", False), ("-f", False), ("2", False), (">", True), ("out.txt", False)]
    assert shell_words('echo "2">x') == [("echo", False), ("2", False), (">", True), ("x", False)]


def test_pip_with_stderr_redirected_installs_only_its_packages():
    assert installed_packages("pip install -U vllm 2>/dev/null") == {"vllm"}
    assert installed_packages("pip install sglang==0.4.6.post1 2>&1 | tail -3") == {"sglang"}


def test_version_checks_with_stderr_joined():
    assert checked_packages("pip show sglang 2>&1 | head -3") == {"sglang"}
    assert checked_packages("nvcc --version 2>&1") == {"nvcc"}
    assert checked_packages("python3 --version 2>&1") == {"python"}


def test_python_heredoc_with_stderr_redirected_changes_the_host():
    body = ("import json\ncfg = json.load(open('/models/eagle3/config.json'))\n"
            "cfg['draft_vocab_size'] = 32000\njson.dump(cfg, open('/models/eagle3/config.json', 'w'))\n")
    assert changes_host(f"python3 <<'PY' 2>&1\n{body}PY") == "python open(…, 'w')"
    assert changes_host(f"python3 2>/dev/null <<'PY'\n{body}PY") == "python open(…, 'w')"


def test_argv_and_pipelines_leave_redirections_out():
    assert list(simple_commands("python3 bench.py --n 2 2>&1")) == [["python3", "bench.py", "--n", "2"]]
    assert pipelines("set -o pipefail; python3 load.py 2>&1 | tail -n 5") == [
        [["set", "-o", "pipefail"]], [["python3", "load.py"], ["tail", "-n", "5"]]]


def test_ssh_reading_a_local_file_past_a_descriptor_redirection():
    assert ssh_reads_local_file("ssh gpu01 python3 - 2>/dev/null < probe.py") is True
    assert ssh_reads_local_file("ssh gpu01 python3 - 0< probe.py") is True
    assert ssh_reads_local_file("ssh gpu01 python3 - 2>&1 < /dev/null") is False


def test_secret_commands_read_the_descriptor_from_the_operator():
    # stderr elsewhere: the value still reaches stdout
    assert prints_secret_value("vault kv get -field=token secret/hf 2>/dev/null") is True
    assert prints_secret_value("vault kv get -field=token secret/hf 2>&1 | tee /tmp/v.log") is True
    # stdout elsewhere
    assert prints_secret_value("vault kv get -field=token secret/hf >/dev/null 2>&1") is False
    assert prints_secret_value("vault kv get -field=token secret/hf 1>/dev/null") is False
    # `cut -f 2 > out`: the 2 is cut's field, the `>` sends stdout to the file
    assert prints_secret_value("vault kv get -field=token secret/hf | cut -d: -f 2 > /tmp/pw") is False
    assert prints_secret_value("tr -d '\\n' 0< /run/secrets/hf_token") is True
