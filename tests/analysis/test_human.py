"""Human-ranking files: YAML and CSV forms, averaging, and exact error messages."""

import pytest

from chatmatch.analysis.human import HumanFileError, load_human

BOTS = ["blenderbot", "dialogpt", "eliza"]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_yaml_single_ranking(tmp_path):
    h = load_human(write(tmp_path, "h.yaml", "ranking:\n  eliza: 3\n  blenderbot: 1\n  dialogpt: 2\n"),
                   BOTS)
    assert h.ranks == {"blenderbot": 1.0, "dialogpt": 2.0, "eliza": 3.0}
    assert h.judges == 1 and h.bots == ["blenderbot", "dialogpt", "eliza"]


def test_yaml_judges_are_averaged_with_dimension_scores(tmp_path):
    text = ("judges:\n"
            "  alice: {blenderbot: 1, dialogpt: 2, eliza: 3}\n"
            "  bob: {blenderbot: 2, dialogpt: 1, eliza: 3}\n"
            "  carol: {blenderbot: 1, dialogpt: 3, eliza: 2}\n"
            "dimensions:\n"
            "  diversity: {blenderbot: 4.5, dialogpt: 3, eliza: [1, 2, 3]}\n")
    h = load_human(write(tmp_path, "h.yml", text), BOTS)
    assert h.judges == 3
    assert h.ranks == pytest.approx({"blenderbot": 4 / 3, "dialogpt": 2.0, "eliza": 8 / 3})
    assert h.dimensions == {"diversity": {"blenderbot": 4.5, "dialogpt": 3.0, "eliza": 2.0}}


def test_yaml_per_bot_rank_lists_are_judges(tmp_path):
    h = load_human(write(tmp_path, "h.yaml", "ranking: {a: [1, 2], b: [2, 1], c: [3, 3]}\n"))
    assert h.judges == 2 and h.ranks == {"a": 1.5, "b": 1.5, "c": 3.0}


def test_judges_as_a_list(tmp_path):
    h = load_human(write(tmp_path, "h.yaml", "judges:\n  - {a: 1, b: 2}\n  - {a: 1, b: 2}\n"))
    assert h.judges == 2 and h.ranks == {"a": 1.0, "b": 2.0}


def test_csv_plain_and_per_judge(tmp_path):
    h = load_human(write(tmp_path, "h.csv", "bot,rank,diversity\nblenderbot,1,4.5\n"
                                            "dialogpt,2,\neliza,3,1\n"), BOTS)
    assert h.ranks == {"blenderbot": 1.0, "dialogpt": 2.0, "eliza": 3.0}
    assert h.dimensions == {"diversity": {"blenderbot": 4.5, "eliza": 1.0}}
    h2 = load_human(write(tmp_path, "j.csv", "judge,bot,rank\nA,x,1\nA,y,2\nB,x,2\nB,y,1\n"))
    assert h2.judges == 2 and h2.ranks == {"x": 1.5, "y": 1.5}


def test_unknown_bot_names_file_line_and_suggests(tmp_path):
    p = write(tmp_path, "h.yaml", "ranking:\n  blenderbot: 1\n  dialogtp: 2\n  eliza: 3\n")
    with pytest.raises(HumanFileError) as exc:
        load_human(p, BOTS)
    assert str(exc.value) == (f"{p}:3: unknown bot 'dialogtp' (not in the run). Did you mean "
                              "'dialogpt'? Bots in the run: blenderbot, dialogpt, eliza")
    assert exc.value.exit_code == 2


def test_duplicate_bot_yaml(tmp_path):
    p = write(tmp_path, "h.yaml", "ranking:\n  eliza: 1\n  dialogpt: 2\n  eliza: 3\n")
    with pytest.raises(HumanFileError) as exc:
        load_human(p, BOTS)
    assert str(exc.value) == (f"{p}:4: duplicate bot 'eliza' in ranking (first on line 2); "
                              "give each bot one entry")


def test_duplicate_bot_csv(tmp_path):
    p = write(tmp_path, "h.csv", "bot,rank\neliza,1\ndialogpt,2\neliza,3\n")
    with pytest.raises(HumanFileError) as exc:
        load_human(p, BOTS)
    assert str(exc.value) == (f"{p}:4: duplicate bot 'eliza' (first on line 2); give each bot "
                              "one rank per judge")


@pytest.mark.parametrize("name,text,message", [
    ("h.csv", "bot,rank\neliza,first\ndialogpt,2\n", ":2: rank of 'eliza': expected a number, got 'first'"),
    ("h.csv", "bot,rank\neliza,0\ndialogpt,2\n", ":2: rank of 'eliza': a rank must be 1 or more"),
    ("h.csv", "bot,score\neliza,1\n", ":1: missing column 'rank' in the header (have: bot, score)"),
    ("h.yaml", "ranking: {eliza: 1, dialogpt: .nan}\n", ":1: rank of 'dialogpt': expected a number"),
    ("h.yaml", "ranks: {eliza: 1}\n", ":1: unknown key 'ranks'; allowed: ranking, judges, dimensions"),
    ("h.yaml", "judges:\n  a: {x: 1, y: 2}\n  b: {x: 1}\n", ":3: judge 'b' does not rank y"),
    ("h.yaml", "ranking: {x: 1}\n", "only 1 bot ranked"),
    ("h.txt", "x", "unknown file type"),
])
def test_bad_files(tmp_path, name, text, message):
    p = write(tmp_path, name, text)
    with pytest.raises(HumanFileError) as exc:
        load_human(p)
    assert message in str(exc.value) and str(exc.value).startswith(str(p))


def test_missing_file(tmp_path):
    with pytest.raises(HumanFileError, match="file not found"):
        load_human(tmp_path / "nope.yaml")


def test_unknown_dimension_is_reported(tmp_path):
    h = load_human(write(tmp_path, "h.yaml", "ranking: {a: 1, b: 2}\ndimensions:\n  divrsity: {a: 1, b: 2}\n"))
    with pytest.raises(HumanFileError) as exc:
        h.check_dimensions(["diversity", "fluency"])
    assert str(exc.value).endswith(":3: unknown dimension 'divrsity' (the run scored diversity, "
                                   "fluency). Did you mean 'diversity'?")


def test_a_rank_beyond_the_largest_number_says_so(tmp_path):
    with pytest.raises(HumanFileError, match="'1e400' is beyond the largest number"):
        load_human(write(tmp_path, "h.yaml", "ranking: {eliza: 1e400, blenderbot: 1, dialogpt: 2}\n"),
                   BOTS)
