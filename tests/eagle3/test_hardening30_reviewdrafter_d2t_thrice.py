"""A d2t naming one target id three times (draft ids 4, 5 and 6 all given id 4's target) was
said "draft ids 4 and 5 both map to target id X (2 target id(s) named twice): that token is
proposed from two lm_head rows": one target id, three rows. Now the line names the three draft
ids and says one target id named more than once; a map of pairs keeps its words."""

from __future__ import annotations

from spec_debug.eagle3.vocab import check_d2t_offsets


def _message(targets: list[int]) -> str:
    offsets = [t - i for i, t in enumerate(targets)]
    [issue] = [i for i in check_d2t_offsets(offsets, 100).issues
               if i.kind == "d2t_not_increasing"]
    return issue.message


def test_one_target_id_named_three_times_is_said_as_such():
    message = _message([1, 3, 5, 7, 9, 9, 9, 20])
    assert message.endswith(
        "; draft ids 4, 5 and 6 all map to target id 9 (1 target id(s) named more than once): "
        "that token is proposed from 3 lm_head rows and 2 selected id(s) are never proposed; "
        "save d2t again from the training's vocab map")


def test_two_pairs_are_still_named_twice():
    message = _message([1, 3, 3, 7, 8, 8, 20])
    assert ("; draft ids 1 and 2 both map to target id 3 (2 target id(s) named twice): that "
            "token is proposed from two lm_head rows and 2 selected id(s) are never proposed"
            in message)


def test_an_id_past_the_vocabulary_named_twice_is_not_a_token_proposed_twice():
    message = _message([1, 3, 5, 120, 120])  # past the 100-id vocabulary
    assert message == ("arange(DV) + d2t is not strictly increasing (the training recipes "
                       "sort the selected ids)")
