"""torch.load's weights_only refusal is named by the unpickler's reason, not by the advice every
such refusal opens with.

The outputs are real: torch 2.13.0+cpu (Python 3.11) loading, with the default weights_only=True,
a checkpoint that pickled a config object of the script's own class, a plain pickle of protocol 4,
and one holding a reference to os.getcwd (recorded in hardening 72, failures6). torch words the
three differently (torch/serialization.py, _get_wo_message); each says what to fix on a line
below the exception's own.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

SERIALIZATION = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/serialization.py"

UNSAFE_GLOBAL = (
    'Traceback (most recent call last):\n'
    '  File "/tmp/failures6-scratch/load_ckpt.py", line 2, in <module>\n'
    '    sd = torch.load("/tmp/failures6-scratch/draft.pt")\n'
    '         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
    '  File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/serialization.py", line 1609, in load\n'
    '    raise pickle.UnpicklingError(_get_wo_message(str(e))) from None\n'
    '_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n'
    '\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n'
    '\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n'
    '\tWeightsUnpickler error: Unsupported global: GLOBAL __main__.Cfg was not an allowed global by default. Please use `torch.serialization.add_safe_globals([__main__.Cfg])` or the `torch.serialization.safe_globals([__main__.Cfg])` context manager to allowlist this global if you trust this class/function.\n'
    '\n'
    'Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.\n'
)

UNSUPPORTED_OPERAND = (
    '/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/_weights_only_unpickler.py:590: UserWarning: Detected pickle protocol 4 in the checkpoint, which was not the default pickle protocol used by `torch.load` (2). The weights_only Unpickler might not support all instructions implemented by this protocol, please file an issue for adding support if you encounter this.\n'
    '  return Unpickler(file, encoding=encoding).load()\n'
    'Traceback (most recent call last):\n'
    '  File "<string>", line 1, in <module>\n'
    '  File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/serialization.py", line 1633, in load\n'
    '    raise pickle.UnpicklingError(_get_wo_message(str(e))) from None\n'
    '_pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n'
    'Please file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n'
    '\n'
    'Unsupported operand 149\n'
    '\n'
    'Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.\n'
)

BLOCKED_MODULE = (
    'Traceback (most recent call last):\n'
    '  File "<string>", line 1, in <module>\n'
    '  File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/serialization.py", line 1609, in load\n'
    '    raise pickle.UnpicklingError(_get_wo_message(str(e))) from None\n'
    '_pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n'
    '\n'
    '\n'
    'Trying to load unsupported GLOBAL posix.getcwd whose module posix is blocked.\n'
    '\n'
    'Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.\n'
)


def _said(output: str) -> list[tuple]:
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in extract_errors(output, 1, True)]


def test_a_class_not_allowlisted_is_named():
    # before: "Weights only load failed. This file can still be loaded, to do so you have two
    # options, do those steps only if you trust the source of the checkpoint."
    assert _said(UNSAFE_GLOBAL) == [(
        "traceback", "_pickle.UnpicklingError",
        ("Weights only load failed: Unsupported global: GLOBAL __main__.Cfg was not an allowed global by "
         "default. Please use `torch.serialization.add_safe_globals([__main__.Cfg])` or the "
         "`torch.serialization.safe_globals([__main__.Cfg])` context manager to allowlist this global if "
         "you trust this class/function.")[:300],
        SERIALIZATION, 1609)]


def test_an_unsupported_operand_is_named():
    # before: the advice's first line ("... In PyTorch 2.6, we changed the default value ...")
    assert _said(UNSUPPORTED_OPERAND) == [(
        "traceback", "_pickle.UnpicklingError", "Weights only load failed: Unsupported operand 149",
        SERIALIZATION, 1633)]


def test_a_blocked_module_is_named():
    assert _said(BLOCKED_MODULE) == [(
        "traceback", "_pickle.UnpicklingError",
        "Weights only load failed: Trying to load unsupported GLOBAL posix.getcwd whose module posix is blocked.",
        SERIALIZATION, 1609)]


def test_a_reason_on_the_exception_line_is_kept():
    # _get_wo_message's third form: the reason on the first line, the advice after it
    output = (
        "Traceback (most recent call last):\n"
        '  File "/srv/load.py", line 3, in <module>\n'
        "    torch.load(path)\n"
        "_pickle.UnpicklingError: Weights only load failed. numpy.core.multiarray._reconstruct must be "
        "numpy._core.multiarray._reconstruct to load\n"
        " In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from "
        "`False` to `True`.\n"
        "\n"
        "Check the documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.\n")
    assert [e.message for e in extract_errors(output, 1, True)] == [
        "Weights only load failed. numpy.core.multiarray._reconstruct must be "
        "numpy._core.multiarray._reconstruct to load"]


def test_behind_a_log_prefix():
    # a server that logs every line of the traceback behind its own prefix
    prefixed = "".join(f"(EngineCore_0 pid=41) {line}\n" for line in UNSUPPORTED_OPERAND.splitlines())
    assert [e.message for e in extract_errors(prefixed, 1, True)] == [
        "Weights only load failed: Unsupported operand 149"]


def test_the_session_error_names_the_reason(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Load the drafter checkpoint and print its keys."},
        {"role": "assistant", "content": "Loading it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "python3 load_ckpt.py"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": UNSAFE_GLOBAL + "[exit code: 1]"},
    ]
    path = tmp_path / "load.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    analysis = analyze_path(path)
    assert [(e.exception, e.message[:94]) for e in analysis.errors] == [
        ("_pickle.UnpicklingError",
         "Weights only load failed: Unsupported global: GLOBAL __main__.Cfg was not an allowed global by")]
