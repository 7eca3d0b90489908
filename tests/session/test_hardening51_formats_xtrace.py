"""A log of a script run with ``set -x`` (a CI job's, a Slurm batch job's ``slurm-N.out``) shows
no prompt: each command the script ran is a trace line, ``+ cmd`` (bash's PS4, a ``+`` more per
level of indirection), ``+name:N> cmd`` under zsh. The log read as one text with no command, so
the launch and the error it ended in were lost, and a failed call named no command."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

SLURM_LOG = """\
+ export SGLANG_PORT=30000
++ scontrol show hostnames 'gpu[01-02]'
++ head -n1
+ HEAD_NODE=gpu01
+ python3 -c '
import torch
print(torch.cuda.device_count())'
8
+ srun --nodes=1 -w gpu01 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --port 30000
[2025-10-01 10:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct')
Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/sglang/launch_server.py", line 10, in <module>
    main()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
+ echo done
done
"""


def test_a_traced_batch_job_log_gives_the_commands_it_ran(tmp_path: Path) -> None:
    path = tmp_path / "slurm-4242.out"
    path.write_text(SLURM_LOG)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [
        "export SGLANG_PORT=30000", "scontrol show hostnames 'gpu[01-02]'", "head -n1", "HEAD_NODE=gpu01",
        "python3 -c '\nimport torch\nprint(torch.cuda.device_count())'",  # its quoted lines are the command's
        "srun --nodes=1 -w gpu01 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--speculative-algorithm EAGLE3 --port 30000",
        "echo done"]
    launch = doc["commands"][5]
    assert (launch["host"], launch["is_error"]) == ("gpu01", True)
    assert [(e["exception"], e["command_seq"]) for e in doc["errors"]] == [("torch.OutOfMemoryError", launch["seq"])]
    assert doc["agents"][0]["failed_calls"] == 1


def test_a_zsh_trace_line_is_a_command(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    path.write_text("+launch.sh:3> nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n+launch.sh:4> echo ok\nok\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == ["nvidia-smi -L", "echo ok"]


def test_a_trace_under_a_typed_command_is_its_output_and_no_command_twice(tmp_path: Path) -> None:
    # `bash -x` typed at a prompt, and `set -x` in the interactive shell: the trace lines echo
    # what ran under the typed command; the commands are those typed.
    path = tmp_path / "gpu01.log"
    path.write_text("root@gpu01:~# bash -x check.sh\n+ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
                    "root@gpu01:~# set -x\nroot@gpu01:~# ls /models\n+ ls --color=auto /models\neagle3\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("bash -x check.sh", "gpu01"), ("set -x", "gpu01"), ("ls /models", "gpu01")]


def test_a_notes_list_with_plus_bullets_has_no_commands(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Release notes\n+ Added EAGLE-3 support\n+ Fixed the draft vocab map\n")
    assert analyze_path(path).to_json()["commands"] == []
    md = tmp_path / "notes.md"
    md.write_text("# Changes\n\n+ added eagle3 flag\n+ fixed x\n")
    assert analyze_path(md).to_json()["commands"] == []


def test_a_script_traced_ssh_moves_no_later_command(tmp_path: Path) -> None:
    # `ssh gpu01 <<EOF ... EOF` is traced as `+ ssh gpu01` (xtrace shows no redirection): the
    # script's next commands still ran where the script did.
    path = tmp_path / "ci.log"
    path.write_text("+ ssh gpu01\nGPU 0: NVIDIA H100 80GB HBM3\n+ curl -s localhost:30000/health\nok\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("ssh gpu01", "gpu01"), ("curl -s localhost:30000/health", None)]


def test_a_diff_header_is_no_trace_line(tmp_path: Path) -> None:
    path = tmp_path / "ci.log"
    path.write_text("+ git diff\ndiff --git a/launch.sh b/launch.sh\n--- a/launch.sh\n+++ b/launch.sh\n"
                    "@@ -1 +1 @@\n-python3 -m sglang.launch_server\n+python3 -m sglang.launch_server --port 30000\n"
                    "--- old.py\t2025-10-01 10:00:00\n+++ new.py\t2025-10-01 10:01:00\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == ["git diff"]


def test_a_banner_the_script_echoes_does_not_end_the_trace(tmp_path: Path) -> None:
    # `echo "### Launch ###"` prints a line a Markdown note would call a heading
    path = tmp_path / "job.out"
    path.write_text("+ echo '### Launch ###'\n### Launch ###\n"
                    "+ python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3\n"
                    "Traceback (most recent call last):\n  File \"/opt/sglang/launch_server.py\", line 3, in <module>\n"
                    "ValueError: draft vocab mismatch\n")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [
        "echo '### Launch ###'",
        "python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3"]
    assert [e["command_seq"] for e in doc["errors"]] == [doc["commands"][1]["seq"]]
