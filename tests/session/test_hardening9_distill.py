"""An agent that sends a host its check in a heredoc (``ssh gpu01 << 'EOF'`` + lines + ``EOF``)
ran that script there: the analyzer names the step by the script, as the distilled playbook
runs it, not by the redirection (``< < EOF ...``)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.shell import categorize, parse_target
from tests.session.incident_story import _Writer


def test_the_remote_command_of_a_heredoc_ssh_is_the_script():
    target = parse_target("ssh root@gpu01 << 'EOF'\ncat /root/eagle3/config.json\nEOF")
    assert (target.host, target.user, target.inner) == ("gpu01", "root", "cat /root/eagle3/config.json")
    # before: `< < EOF cat ... EOF`, a command whose first word is `<`: "Running commands"
    assert categorize("ssh root@gpu01 << 'EOF'\ncat /root/eagle3/config.json\nEOF") == "inspect_config"


def test_a_shell_reading_its_stdin_on_the_host_runs_the_heredoc():
    for shell in ("bash -s", "'bash -s'", "sh", "/bin/bash"):
        command = f"ssh -p 2222 gpu01 {shell} <<EOF\ntail -n 50 /var/log/sglang.log\nEOF"
        target = parse_target(command)
        assert (target.host, target.port, target.inner) == ("gpu01", 2222, "tail -n 50 /var/log/sglang.log"), shell
        assert categorize(command) == "logs", shell


def test_a_program_reading_the_heredoc_keeps_it():
    command = "ssh gpu01 python3 - <<'PY'\nimport json\nprint(json.load(open('/root/eagle3/config.json')))\nPY"
    assert parse_target(command).inner == command.split(" ", 2)[2]
    assert categorize(command) == "inspect_config"  # before: `python3 - < < PY import json print`


def test_an_indented_terminator_of_a_dash_heredoc_ends_the_script():
    """``<<-`` strips the leading tabs of the lines and of the terminator (bash(1), Here Documents)."""
    target = parse_target("ssh gpu01 <<-EOF\n\tnvidia-smi -q\n\tEOF")
    assert (target.host, target.inner) == ("gpu01", "nvidia-smi -q")
    # without the dash a tab-indented EOF is a line of the script, the next bare EOF ends it
    assert parse_target("ssh gpu01 <<EOF\n\tEOF\nuptime\nEOF").inner == "\tEOF\nuptime"


def test_the_commands_after_the_terminator_run_where_the_session_ran():
    target = parse_target("ssh gpu01 bash -s <<'EOF'\nnvidia-smi\nEOF\necho checked")
    assert (target.host, target.inner) == ("gpu01", "nvidia-smi")


def test_a_heredoc_for_a_local_program_is_not_the_remote_script():
    assert parse_target("ssh gpu01 uptime; cat <<EOF > notes.txt\nload is high\nEOF").inner == "uptime"
    assert parse_target("cat <<EOF > notes.txt\nssh gpu01 nvidia-smi\nEOF").host is None
    # a variable set on the line still names the host of the ssh that reads the heredoc
    target = parse_target("H=gpu01; ssh $H <<EOF\nnvidia-smi\nEOF")
    assert (target.host, target.inner) == ("gpu01", "nvidia-smi")


def test_other_redirections_of_ssh_read_as_before():
    # the script is a local file: its text is not in the session
    assert parse_target("ssh gpu01 bash -s < check.sh").inner == "bash -s < check.sh"
    assert parse_target("ssh gpu01 'cat > /tmp/x' < x").inner == "cat > /tmp/x < x"
    assert parse_target("ssh gpu01 nvidia-smi -q -d MEMORY").inner == "nvidia-smi -q -d MEMORY"


def test_a_pytest_temporary_folder_names_no_test_run():
    assert categorize("cat /tmp/pytest-of-root/pytest-3/test_x0/eagle3/config.json") == "inspect_config"
    assert categorize("python -m pytest -x tests/test_eagle.py") == "run_test"
    assert categorize("~/venv/bin/pytest -k draft") == "run_test"


def _write_session(tmp_path: Path, writer: _Writer) -> Path:
    path = tmp_path / f"{writer.session}.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return path


def test_the_analyzer_and_the_playbook_agree_on_the_script(tmp_path):
    script = "cd /root/eagle3\ngrep -c 'accept len' server.log"
    m = _Writer("9a1b0000-0000-4000-8000-00000000dd09", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash(f"ssh root@gpu01 << 'EOF'\n{script}\nEOF", "bash: line 2: grep: command not found", exit_code=127)
    m.bash("ssh root@gpu01 << 'EOF'\ncat /root/eagle3/config.json\nEOF", '{"draft_vocab_size": 32000}')
    analysis = analyze_path(_write_session(tmp_path, m))
    records = analysis.commands
    assert [(c.host, c.inner, c.category) for c in records] == [
        # (the script's second line is its grep of the server log: it was one command, cd's)
        ("gpu01", script, "logs"), ("gpu01", "cat /root/eagle3/config.json", "inspect_config")]
    assert [p.to_category for p in analysis.pivots] == ["inspect_config"]
    steps = distill_playbook(analysis)["steps"]
    assert [s["run"] for s in steps] == ["cd {{ eagle3 }}\ngrep -c 'accept len' server.log",
                                         "cat {{ config_json }}"]


def test_the_simple_commands_of_a_line_and_the_files_it_writes():
    from spec_debug.session.shell_words import simple_commands

    line = "cd /root && sudo -u svc timeout 60 grep '>' server.log > /root/hits.txt 2>&1; nvidia-smi -L >&2"
    read = list(simple_commands(line, writes=True))
    assert [a[:2] if isinstance(a, list) else a for a in read] == [
        ["cd", "/root"], ["grep", ">"], "/root/hits.txt", ["nvidia-smi", "-L"]]  # past sudo and timeout
    assert [a[0] for a in simple_commands(line)] == ["cd", "grep", "nvidia-smi"]
    # a Python heredoc's `if n > 3:` is no redirection
    assert [a[:2] for a in simple_commands("python3 - <<'PY'\nif n > 3:\n    print(n)\nPY", writes=True)] == [
        ["python3", "-"]]


def test_the_playbook_reads_commands_with_the_one_job_modules():
    from spec_debug.session import distill
    from spec_debug.session.follow import follows_output
    from spec_debug.session.host_changes import changes_host
    from spec_debug.session.timeout_limit import timeout_limit

    assert distill.changes_host is changes_host and distill.follows_output is follows_output
    assert changes_host("docker compose restart sglang") == "docker restart"
    assert follows_output("journalctl -u sglang -fn 50") == "journalctl -f"
    assert timeout_limit("timeout -k 10 10m python3 -m sglang.bench_serving") == 610
