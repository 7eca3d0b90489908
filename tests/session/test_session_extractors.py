"""The pure extractors: where a command runs, what failed, which numbers, which facts."""

from __future__ import annotations

import pytest

from spec_debug.session.failures import extract_errors
from spec_debug.session.metrics import extract_metrics
from spec_debug.session.shell import categorize, parse_target
from spec_debug.session.spec_facts import concat_orders, launch_observations, layer_id_lists, text_observations


@pytest.mark.parametrize("command, host, user, port, jump, container, inner", [
    # the example checked in TRANSCRIPTS.md section 5
    ("ssh -p 2222 -o StrictHostKeyChecking=no ubuntu@gpu-node-3 'nvidia-smi && tail -n 5 /var/log/x.log'",
     "gpu-node-3", "ubuntu", 2222, None, None, "nvidia-smi && tail -n 5 /var/log/x.log"),
    ("ssh -i ~/.ssh/id_ed25519 -J bastion gpu01 nvidia-smi", "gpu01", None, None, "bastion", None, "nvidia-smi"),
    ("ssh -o Port=2200 -oUser=bob h1 ls", "h1", "bob", 2200, None, None, "ls"),
    ("ssh -l alice -v h4 df -h", "h4", "alice", None, None, None, "df -h"),
    ("ssh -tt -p2222 h2", "h2", None, 2222, None, None, ""),
    ("ssh -o ProxyJump=jump.example root@10.0.0.5 uptime", "10.0.0.5", "root", None, "jump.example", None, "uptime"),
    ("ssh ssh://deploy@gpu-9:2022 hostname", "gpu-9", "deploy", 2022, None, None, "hostname"),
    ("cd /tmp && ssh bastion ssh gpu9 uptime", "gpu9", None, None, "bastion", None, "uptime"),
    ("timeout 30 sudo -u root ssh h3 ls", "h3", None, None, None, None, "ls"),
    ("scp -P 2222 model.bin root@gpu:/data/", "gpu", "root", 2222, None, None, "scp model.bin root@gpu:/data/"),
    ("scp root@10.1.230.174:/root/sglang_server.log /tmp/", "10.1.230.174", "root", None, None, None,
     "scp root@10.1.230.174:/root/sglang_server.log /tmp/"),
    ('rsync -av -e "ssh -p 2222" ./ckpt/ ubuntu@gpu-7:/ckpt/', "gpu-7", "ubuntu", 2222, None, None,
     "rsync ./ckpt/ ubuntu@gpu-7:/ckpt/"),
    # the remote shell's options: a jump host, a login name, a port glued to -p
    ('rsync -av -e "ssh -J bastion -p 2222 -l ubuntu" ./ckpt/ gpu01:/data/ckpt/', "gpu01", "ubuntu", 2222, "bastion",
     None, "rsync ./ckpt/ gpu01:/data/ckpt/"),
    ('rsync -avz --rsh="ssh -p2200 -o ProxyJump=jump1" a/ root@gpu03:/b', "gpu03", "root", 2200, "jump1", None,
     "rsync a/ root@gpu03:/b"),
    # -o HostName: ssh connects to that address whatever the alias is
    ("ssh -o HostName=10.1.2.3 gpu01 nvidia-smi", "10.1.2.3", None, None, None, None, "nvidia-smi"),
    ('ssh -o "HostName 10.9.9.9" -p 2222 ubuntu@gpu01 ls', "10.9.9.9", "ubuntu", 2222, None, None, "ls"),
    ("scp -o HostName=10.0.0.7 -P 2 f gpu01:/tmp/", "10.0.0.7", None, 2, None, None, "scp f gpu01:/tmp/"),
    ("ssh gpu01 docker exec -it -e X=1 sglang nvidia-smi", "gpu01", None, None, None, "docker:sglang", "nvidia-smi"),
    ("kubectl exec -n ml -it pod/sglang-0 -c main -- python -c 1", None, None, None, None, "pod:sglang-0",
     "python -c 1"),
    ("echo 'ssh not-a-host'", None, None, None, None, None, "echo 'ssh not-a-host'"),
    ("cp a.txt /tmp/b:c", None, None, None, None, None, "cp a.txt /tmp/b:c"),
])
def test_targets(command, host, user, port, jump, container, inner):
    t = parse_target(command)
    assert (t.host, t.user, t.port, t.jump, t.container, t.inner) == (host, user, port, jump, container, inner)


def test_unbalanced_quotes_do_not_raise():
    assert parse_target("ssh gpu01 'echo unterminated").host == "gpu01"


@pytest.mark.parametrize("command, category", [
    ("ssh h 'python -m sglang.launch_server --model-path /m'", "launch_server"),
    ("python -m sglang.bench_serving --backend sglang", "benchmark"),
    ("ssh h 'grep -n forward ~/env/lib/python3.12/site-packages/speculators/models/eagle3/core.py'", "read_source"),
    ("ssh h '~/ml-env/bin/python /tmp/test_drafter_standalone.py'", "run_test"),
    ("sed -i 's/a/b/' run.sh", "edit"),
    ("nvidia-smi", "gpu_status"),
    ("cat /models/draft/config.json", "inspect_config"),
    ("tail -n 50 /var/log/sglang.log", "logs"),
    ("curl -s localhost:30000/health", "health"),
])
def test_categories(command, category):
    assert categorize(command) == category


def test_edit_and_read_tools_without_a_shell_command():
    assert categorize(None, "Edit", "/tmp/x.py") == "edit"
    assert categorize(None, "Read", "/usr/lib/python3/site-packages/a.py") == "read_source"


def test_chained_traceback_reports_what_propagated():
    out = ("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'd2t'\n\n"
           "During handling of the above exception, another exception occurred:\n\n"
           "Traceback (most recent call last):\n  File \"b.py\", line 9, in load\nRuntimeError: no vocab map\n")
    errors = extract_errors(out, 1, True)
    assert [(e.kind, e.exception, e.message, e.file, e.line) for e in errors] == [
        ("traceback", "RuntimeError", "no vocab map", "b.py", 9)]


@pytest.mark.parametrize("output, code, kind, exception", [
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", 1, "cuda_oom", "torch.OutOfMemoryError"),
    ("[rank3]: NCCL error in: ../nccl.cpp:1234, unhandled system error", 1, "nccl", None),
    ("ssh: connect to host gpu01 port 22: Connection refused", 255, "connection", None),
    ("", 124, "timeout", None),
    ("Killed", 137, "signal", "SIGKILL"),
    ("Segmentation fault (core dumped)", 139, "signal", "SIGSEGV"),
    ("ValueError: draft vocab mismatch", 1, "exception", "ValueError"),
    ("make: *** [all] Error 2", 2, "exit_code", None),
])
def test_error_kinds(output, code, kind, exception):
    (error,) = extract_errors(output, code, True)
    assert (error.kind, error.exception) == (kind, exception)


def test_a_clean_output_has_no_error():
    assert extract_errors("Connection refused was fixed yesterday", 0, False) == []


def test_sglang_decode_batch_and_bench_serving():
    log = "\n".join(
        f"[2026-03-02 10:0{i}:00] Decode batch, #running-req: 4, #token: 900, token usage: 0.02, accept len: {a}, "
        f"accept rate: {r}, cuda graph: True, gen throughput (token/s): {t}, #queue-req: 0"
        for i, (a, r, t) in enumerate([(3.1, 0.7, 150.0), (3.3, 0.8, 170.0)]))
    got = [(m.name, m.value, m.unit) for m in extract_metrics(log)]
    assert got == [("throughput", 160.0, "tok/s"), ("accept_length", 3.2, "tokens"), ("accept_rate", 0.75, "ratio")]
    bench = ("Output token throughput (tok/s):         58.31\nMean TTFT (ms):                          120.5\n"
             "Accept length:                           2.05\n")
    assert [(m.name, m.value, m.unit) for m in extract_metrics(bench)] == [
        ("throughput", 58.31, "tok/s"), ("ttft_mean", 120.5, "ms"), ("accept_length", 2.05, "tokens")]


def test_prose_metrics():
    got = [(m.name, m.value, m.unit) for m in extract_metrics(
        "~54.8 tok/s against a 90 tok/s baseline, despite 74.7% validation accuracy; accept length 1.9")]
    assert got == [("baseline_throughput", 90.0, "tok/s"), ("validation_accuracy", 74.7, "%"),
                   ("throughput", 54.8, "tok/s"), ("accept_length", 1.9, "tokens")]
    assert [(m.name, m.value) for m in extract_metrics("baseline of 90 tok/s, now 61.2 tokens/s")] == [
        ("baseline_throughput", 90.0), ("throughput", 61.2)]
    assert [(m.name, m.value) for m in extract_metrics("top-1 accuracy: 12.4%", "python test_standalone.py")] == [
        ("standalone_accuracy", 12.4)]


def test_spec_facts():
    assert [o.code for o in launch_observations(
        "python -m sglang.launch_server --speculative-algorithm EAGLE --speculative-draft-model-path /m/eagle3 "
        "--speculative-num-steps=1")] == ["SD101", "SD103"]
    assert launch_observations("python -m sglang.launch_server --speculative-num-steps 10") == []
    assert launch_observations("sed -i 's/--speculative-num-steps 1/--speculative-num-steps 3/' x.sh") == []
    assert launch_observations('vllm serve m --speculative-config \'{"method": "eagle3", "num_speculative_tokens": 1}\'')[0].code == "SD101"
    assert concat_orders("h = torch.cat([embed, layer3, layer31], dim=-1); torch.cat([a, b])") == [
        ("embed", "layer3", "layer31")]
    assert layer_id_lists('"eagle_aux_hidden_state_layer_ids": [2, 30, 58]') == [(2, 30, 58)]
    codes = lambda text: [o.code for o in text_observations(text)]  # noqa: E731
    assert codes("the checkpoint has no d2t, so draft ids are used as target ids") == ["SD301"]
    assert codes("d2t holds absolute target ids instead of offsets") == ["SD302"]
    assert codes("SGLang 0.4.6 ignores norm_before_residual") == ["SD701"]
    assert codes("norm_before_residual: true is read by this version") == []
