"""torchrun's failure through a pipe: `torchrun --standalone --nproc_per_node 1 trainfail.py 2>&1 |
tail -22` (recorded, torch 2.13.0, CPython 3.11.7: torchrun's status 1, the pipeline's 0, tail's)
ends on ChildFailedError's report box, which is the exception's message (torch/distributed/elastic/
multiprocessing/errors/__init__.py, ChildFailedError.format_msg, _MSG_FORMAT_TEMPLATE, from its
"====" border to the closing one). Read as lines printed after the traceback, the run's death was
no failure of the Claude Code call, where a plain traceback that ends the output is one
(test_hardening71_traceback_through_tail). The same box read back from a log is still none."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening67_install_folder import _session

FULL = (
    'Traceback (most recent call last):\n'
    '  File "/root/spec/trainfail.py", line 1, in <module>\n'
    '    raise RuntimeError("draft head hidden size 4096 does not match target 5120")\n'
    'RuntimeError: draft head hidden size 4096 does not match target 5120\n'
    'E1207 04:45:37.685000 29578 site-packages/torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 0 (pid: 29754) of binary: /usr/local/bin/python3\n'
    'Traceback (most recent call last):\n'
    '  File "/usr/local/bin/torchrun", line 8, in <module>\n'
    '    sys.exit(main())\n'
    '             ^^^^^^\n'
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 367, in wrapper\n'
    '    return f(*args, **kwargs)\n'
    '           ^^^^^^^^^^^^^^^^^^\n'
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/run.py", line 1028, in main\n'
    '    run(args)\n'
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/run.py", line 1019, in run\n'
    '    elastic_launch(\n'
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 194, in __call__\n'
    '    return launch_agent(\n'
    '           ^^^^^^^^^^^^^\n'
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 383, in launch_agent\n'
    '    raise ChildFailedError(\n'
    'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n'
    '============================================================\n'
    'trainfail.py FAILED\n'
    '------------------------------------------------------------\n'
    'Failures:\n'
    '  <NO_OTHER_FAILURES>\n'
    '------------------------------------------------------------\n'
    'Root Cause (first observed failure):\n'
    '[0]:\n'
    '  time      : 2026-12-07_04:45:37\n'
    '  host      : localhost\n'
    '  rank      : 0 (local_rank: 0)\n'
    '  exitcode  : 1 (pid: 29754) \n'
    '  error_file: <N/A>\n'
    '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n'
    '============================================================\n'
)
TAIL_22 = "".join(FULL.splitlines(keepends=True)[-22:])
STEPS = [  # (command, output, failed)
    ("torchrun --standalone --nproc_per_node 1 trainfail.py 2>&1 | tail -22", TAIL_22, True),
    ("torchrun --standalone --nproc_per_node 1 trainfail.py 2>&1 | tee train.log", FULL, True),
    ("tail -22 train.log", TAIL_22, False),
    ("torchrun --nproc_per_node 1 trainfail.py 2>&1 | tee train.log", FULL + "retrying with 2 ranks\n", False),
]


def test_torchruns_report_ends_the_run_it_failed(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path / "s.jsonl", [(c, out, "/root") for c, out, _ in STEPS]))
    assert [(c.command, c.exit_code, c.is_error) for c in analysis.commands] == [(c, 0, f) for c, _, f in STEPS]
    by_seq = {c.seq: c.command for c in analysis.commands}
    assert [by_seq[e.command_seq] for e in analysis.errors if e.message == "draft head hidden size 4096 does not match "
            "target 5120"] == [STEPS[1][0], STEPS[3][0]]
