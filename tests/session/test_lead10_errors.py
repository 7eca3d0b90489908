"""Errors printed twice in one output are one failure."""

from pathlib import Path

from spec_debug.session.failures import extract_errors

DATA = Path(__file__).parent / "data_lead10"


def test_vllm_enginecore_traceback_logged_then_printed_raw_is_one_error():
    # vLLM V1 (vllm/v1/engine/core.py, run_engine_core): logger.exception("EngineCore failed to
    # start.") writes the traceback behind the log prefix, then multiprocessing prints it raw
    # under "Process EngineCore_0:"; the API server's own RuntimeError follows
    # (vllm/v1/engine/core_client.py: "Engine core initialization failed. See root cause above.").
    output = (DATA / "vllm_enginecore_startup.log").read_text()
    errors = extract_errors(output, 1, True)
    assert [(e.exception, e.file.rsplit("/", 1)[-1], e.line) for e in errors] == [
        ("ValueError", "eagle.py", 412), ("RuntimeError", "core_client.py", 441)]
    assert errors[0].message == "Eagle3 draft model expects 3 aux hidden states, got 2"


def test_same_exception_at_another_frame_stays_two_errors():
    tb = 'Traceback (most recent call last):\n  File "/w/train.py", line {line}, in step\n    run()\nKeyError: \'d2t\'\n'
    errors = extract_errors(tb.format(line=10) + tb.format(line=10) + tb.format(line=99), 1, True)
    assert [(e.exception, e.line) for e in errors] == [("KeyError", 10), ("KeyError", 99)]


def test_a_bare_exception_line_without_an_error_suffix_is_named_by_its_module_path():
    # Triton raises OutOfResources (triton/runtime/errors.py) when a kernel's shared memory does
    # not fit, e.g. an EAGLE-3 draft's tree attention on a smaller GPU; torch._dynamo raises
    # Unsupported. Neither name ends in Error, and the failed command printed only that line.
    out = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, "
           "Hardware limit: 101376. Reducing block sizes or `num_stages` may help.")
    (error,) = extract_errors(out, 1, True)
    assert (error.kind, error.exception) == ("exception", "triton.runtime.errors.OutOfResources")
    assert error.message.startswith("out of resource: shared memory")
    # a dotted word before a colon in prose is no exception
    (plain,) = extract_errors("see huggingface.co/Docs: for details", 1, True)
    assert plain.kind == "exit_code"
