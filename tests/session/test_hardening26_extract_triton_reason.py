"""Triton's CompilationError says where ("at 12:13:") over the kernel's source and a caret, then
why: the error its code generator caught, as repr(e) (triton-lang/triton
python/triton/compiler/errors.py _format_message; code_generator.py visit_Call raises it
``from e``). The analyzer reported "at 12:13:" alone, no reason (vllm-project/vllm#35091, a
draft model's merge kernel failing to compile inside EngineCore)."""

from spec_debug.session.failures import extract_errors

_CAUSE = ('Traceback (most recent call last):\n'
          '  File "/venv/lib/python3.12/site-packages/triton/language/core.py", line 35, in wrapper\n'
          '    return fn(*args, **kwargs)\n'
          "ValueError: arange's range must be a power of 2\n\n"
          "The above exception was the direct cause of the following exception:\n\n")
_RAISED = ('Traceback (most recent call last):\n'
           '  File "/venv/lib/python3.12/site-packages/triton/compiler/compiler.py", line 80, in make_ir\n'
           '    return ast_to_ttir(self.fn, self, context=context, options=options)\n'
           'triton.compiler.errors.CompilationError: at 12:13:\n'
           '    pid = tl.program_id(0)\n'
           '\n'
           '    offs = tl.arange(0, NUM_DRAFT)\n'
           '             ^\n')


def test_the_reason_after_the_caret_is_the_message():
    text = _CAUSE + _RAISED + "ValueError(\"arange's range must be a power of 2\")\n"
    [err] = extract_errors(text, exit_code=1)
    assert err.exception == "triton.compiler.errors.CompilationError"
    # before: "at 12:13:"
    assert err.message == "at 12:13: ValueError(\"arange's range must be a power of 2\")"


def test_the_reason_behind_a_vllm_log_prefix():
    prefix = "(EngineCore_DP0 pid=150) ERROR 02-23 02:23:19 [core.py:948] "
    body = _RAISED + "ValueError('NUM_DRAFT must be a power of 2')\n"
    text = "".join(prefix + line + "\n" for line in body.splitlines())
    [err] = extract_errors(text, exit_code=1)
    assert err.message == "at 12:13: ValueError('NUM_DRAFT must be a power of 2')"


def test_another_process_line_after_the_caret_is_no_reason():
    prefix = "(EngineCore_DP0 pid=150) ERROR 02-23 02:23:19 [core.py:948] "
    text = "".join(prefix + line + "\n" for line in _RAISED.splitlines()) + "(EngineCore_DP0 pid=150) Process EngineCore_DP0:\n"
    [err] = extract_errors(text, exit_code=1)
    assert err.message == "at 12:13:"


def test_without_a_reason_the_cause_it_was_raised_from_is_the_error():
    # visit() raises CompilationError(src, node, None) from e: nothing after the caret
    [err] = extract_errors(_CAUSE + _RAISED, exit_code=1)
    # before: CompilationError "at 12:13:"
    assert (err.exception, err.message) == ("ValueError", "arange's range must be a power of 2")


def test_the_next_traceback_is_no_reason():
    text = _RAISED + "\nDuring handling of the above exception, another exception occurred:\n\n" \
        'Traceback (most recent call last):\n  File "/x.py", line 3, in <module>\n    run()\n' \
        "RuntimeError: kernel build failed: see the stack trace above\n"
    errs = extract_errors(text, exit_code=1)
    assert errs and not any("During handling" in e.message or "Traceback" in e.message for e in errs)
