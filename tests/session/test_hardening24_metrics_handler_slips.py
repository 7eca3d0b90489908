"""A handler's own slip after a fault ("During handling of the above exception, another exception
occurred") is not the error: the fault it was handling is.

SpecForge's train script closing its tracker in an except block, the tracker's run never made:
"ValueError: d2t has 32000 entries but draft_vocab_size is 16000", then while handling it
"AttributeError: 'NoneType' object has no attribute 'finish'". The AttributeError was reported,
and the vocabulary mismatch, the fault, lost. A handler's deliberate raise keeps its words.
"""

from spec_debug.session.failures import extract_errors

CAUSE = """Traceback (most recent call last):
  File "/workspace/SpecForge/scripts/train_eagle3.py", line 512, in main
    draft_model.load_vocab_mapping(args.vocab_mapping_path)
  File "/workspace/SpecForge/specforge/modeling/draft/base.py", line 88, in load_vocab_mapping
    raise ValueError(f"d2t has {d2t.shape[0]} entries but draft_vocab_size is {self.draft_vocab_size}")
ValueError: d2t has 32000 entries but draft_vocab_size is 16000

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/workspace/SpecForge/scripts/train_eagle3.py", line 530, in <module>
    main()
  File "/workspace/SpecForge/specforge/tracker.py", line 77, in close
    self.run.finish()
"""


def _first(text):
    e = extract_errors(text, exit_code=1)[0]
    return e.exception, e.message, e.file, e.line


def test_an_attribute_error_in_the_handler_gives_way_to_the_fault():
    text = CAUSE + "AttributeError: 'NoneType' object has no attribute 'finish'\n"
    assert _first(text) == ("ValueError", "d2t has 32000 entries but draft_vocab_size is 16000",
                            "/workspace/SpecForge/specforge/modeling/draft/base.py", 88)


def test_a_name_error_in_the_handler_too():
    text = CAUSE + "NameError: name 'logger' is not defined\n"
    assert _first(text)[0] == "ValueError"


def test_a_deliberate_raise_in_the_handler_keeps_its_words():
    text = CAUSE + "RuntimeError: could not load the drafter's vocabulary mapping from /ckpt/d2t.npy\n"
    assert _first(text)[:2] == ("RuntimeError", "could not load the drafter's vocabulary mapping from /ckpt/d2t.npy")


def test_raised_from_the_fault_an_attribute_error_stays():
    text = CAUSE.replace("During handling of the above exception, another exception occurred",
                         "The above exception was the direct cause of the following exception") \
        + "AttributeError: draft model has no lm_head\n"
    assert _first(text)[:2] == ("AttributeError", "draft model has no lm_head")
