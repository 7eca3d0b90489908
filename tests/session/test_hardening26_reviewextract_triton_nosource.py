"""Triton's CompilationError for a kernel whose source it does not have (src None: a kernel built
from a string) prints " <source unavailable>" where the source and caret go, then the reason
(triton-lang/triton python/triton/compiler/errors.py _format_message). abc4369 read the reason
only after a caret: this error was "at 3:4:" alone, then the cause it was raised from."""

from spec_debug.session.failures import extract_errors

_RAISED = ('Traceback (most recent call last):\n'
           '  File "/venv/lib/python3.12/site-packages/triton/compiler/compiler.py", line 80, in make_ir\n'
           '    return ast_to_ttir(self.fn, self, context=context, options=options)\n'
           'triton.compiler.errors.CompilationError: at 3:4:\n'
           '{excerpt}\n'
           "ValueError('NUM_DRAFT must be a power of 2')\n")


def test_the_reason_after_source_unavailable_is_the_message():
    for excerpt in (" <source unavailable>", " <source empty>"):
        [err] = extract_errors(_RAISED.format(excerpt=excerpt), exit_code=1)
        assert err.message == "at 3:4: ValueError('NUM_DRAFT must be a power of 2')"
