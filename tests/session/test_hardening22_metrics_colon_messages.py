"""An exception message that ends in a colon goes on on the next line, and that line is kept.

torch's load_state_dict raises "RuntimeError: Error(s) in loading state_dict for
Eagle3DraftModel:" and puts each fault on a tab-indented line under it (torch/nn/modules/
module.py). A drafter checkpoint saved for another vocabulary gives "size mismatch for
embed_tokens.weight: copying a param with shape torch.Size([128261, 64]) from checkpoint, the
shape in current model is torch.Size([128256, 64])." there; the error stopped at the colon.
The traceback below is torch's own, loading a speculators 0.9.0 Eagle3DraftModel's state dict
with an embedding five rows too long.
"""

from spec_debug.session.failures import extract_errors

LOAD = '''\
Traceback (most recent call last):
  File "<stdin>", line 11, in <module>
  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 2638, in load_state_dict
    raise RuntimeError(
RuntimeError: Error(s) in loading state_dict for Eagle3DraftModel:
\tsize mismatch for embed_tokens.weight: copying a param with shape torch.Size([128261, 64]) from checkpoint, the shape in current model is torch.Size([128256, 64]).
'''


def test_the_line_after_the_colon_is_kept():
    [err] = extract_errors(LOAD, exit_code=1)
    assert err.message == ("Error(s) in loading state_dict for Eagle3DraftModel: size mismatch for embed_tokens.weight: "
                           "copying a param with shape torch.Size([128261, 64]) from checkpoint, the shape in current "
                           "model is torch.Size([128256, 64]).")
    assert err.file.endswith("torch/nn/modules/module.py")


def test_behind_a_log_prefix():
    p = "(EngineCore_DP0 pid=9) ERROR 06-01 10:00:00 [core.py:708] "
    text = "".join(p + line + "\n" for line in LOAD.splitlines())
    [err] = extract_errors(text, exit_code=1)
    assert err.message.startswith("Error(s) in loading state_dict for Eagle3DraftModel: size mismatch for embed_tokens")


def test_a_missing_key():
    text = LOAD.split("\tsize")[0] + '\tMissing key(s) in state_dict: "d2t", "t2d".\n'
    [err] = extract_errors(text, exit_code=1)
    assert err.message == 'Error(s) in loading state_dict for Eagle3DraftModel: Missing key(s) in state_dict: "d2t", "t2d".'


def test_a_colon_at_the_end_with_nothing_after_is_as_before():
    text = LOAD.split("\tsize")[0] + "\n"
    [err] = extract_errors(text, exit_code=1)
    assert err.message == "Error(s) in loading state_dict for Eagle3DraftModel:"


def test_tritons_at_line_column_keeps_no_source_line():
    text = ('Traceback (most recent call last):\n  File "/x/k.py", line 3, in <module>\n    kernel[grid](x)\n'
            "triton.compiler.errors.CompilationError: at 32:22:\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
            "                      ^\n")
    [err] = extract_errors(text, exit_code=1)
    assert err.message == "at 32:22:"
