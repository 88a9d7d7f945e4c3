"""The evidence-augmented judge uses AMR the user supplies in PENMAN notation, and falls
back (saying so) to a spaCy dependency graph for turns without one."""

import pytest

from chatmatch.judges.amr import AMR_KIND, DEP_KIND, AMRJudge, load_amr
from chatmatch.judges.backends import JudgeError

AMR = """# ::snt What did you do last week?
(d / do-02
   :ARG0 (y / you)
   :ARG1 (a / amr-unknown)
   :time (w / week :mod (l / last)))

# ::snt I  went hiking with my dog.
(g / go-02
   :ARG0 (i / i)
   :ARG1 (h / hike-01 :ARG0 i)
   :accompanier (d / dog :poss i))
"""


@pytest.fixture()
def amr_file(tmp_path):
    p = tmp_path / "graphs.amr"
    p.write_text(AMR)
    return p


def test_load_amr_keys_by_normalised_sentence(amr_file):
    graphs = load_amr(amr_file)
    assert set(graphs) == {"what did you do last week?", "i went hiking with my dog."}
    assert "(g / go-02 :ARG0 (i / i)" in graphs["i went hiking with my dog."]


def test_judge_uses_supplied_amr_when_both_turns_have_one(amr_file):
    judge = AMRJudge(AMRJudge.Params(amr_file=str(amr_file)))
    kind, text = judge.graph("What did you do last week?", "I went hiking with my  dog.")
    assert kind == AMR_KIND
    assert "(d / do-02" in text and "(g / go-02" in text


def test_judge_falls_back_to_a_dependency_graph_and_names_it(amr_file):
    judge = AMRJudge(AMRJudge.Params(amr_file=str(amr_file)))
    kind, text = judge.graph("What did you do last week?", "Nothing much, I stayed home.")
    assert kind == DEP_KIND
    # a graph of both turns: each sentence root hangs from the top node, lemmas as concepts
    assert text.startswith("(x0 / multi-sentence")
    assert ":snt1 (" in text and ":snt2 (" in text
    assert "/ stay" in text and "/ do" in text
    assert "go-02" not in text  # the supplied AMR is for another sentence


def test_bad_amr_files_are_clear_errors(tmp_path):
    no_snt = tmp_path / "x.amr"
    no_snt.write_text("(w / want-01 :ARG0 (b / boy))\n")
    with pytest.raises(JudgeError, match="no graph has a '# ::snt <sentence>' line"):
        load_amr(no_snt)
    with pytest.raises(ValueError, match="does not exist"):
        AMRJudge.Params(amr_file=str(tmp_path / "missing.amr"))
