"""One settings model (EvalSettings) for run, score, validate and stored runs, and a run
directory's config.yaml read once, typed (chatmatch.run.storedsetup)."""

import builtins
import shutil
from pathlib import Path

import pytest
import yaml

from chatmatch.config.settings import SETTINGS_KEYS, EvalSettings, FailurePolicy
from chatmatch.config.tournament import TournamentConfig, config_data, load_config
from chatmatch.errors import ConfigError, RunDirError
from chatmatch.run.scorelogs import load_score_config, score_logs
from chatmatch.run.tournament import run_tournament
from chatmatch.run.resume import check_failures
from chatmatch.rundir.store import RunDir
from chatmatch.run.storedrun import Run
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.validity.lab.core import load_lab_config, with_ngram_fluency
from tests.cli.test_score import logs
from tests.run.test_runner import make_cfg

DATA = Path(__file__).parents[1] / "data"


def test_the_tournament_declares_no_settings_key_of_its_own():
    assert issubclass(TournamentConfig, EvalSettings)
    assert not set(SETTINGS_KEYS) & set(TournamentConfig.__annotations__)  # declared once
    for key in SETTINGS_KEYS:
        assert repr(TournamentConfig.model_fields[key]) == repr(EvalSettings.model_fields[key]), key


def test_the_run_directorys_yaml_and_the_first_problem_keep_the_files_order(tmp_path):
    cfg = make_cfg(tmp_path)
    assert list(config_data(cfg))[:9] == ["preset", "name", "description", "bots",
                                          "seed_utterance", "exchanges", "scoring", "ranking", "seed"]
    p = tmp_path / "t.yaml"
    p.write_text("bots: [eliza, parrot]\nseed: x\nexchanges: 0\n")
    with pytest.raises(ConfigError, match=r"t.yaml:3: exchanges: .* \(and 1 more problem\)"):
        load_config(p, check_bots=False)


def test_a_tournaments_settings_are_its_preset_scoring_ranking_and_seed(tmp_path):
    p = tmp_path / "t.yaml"
    p.write_text("preset: paper\nbots: [eliza, parrot]\nseed: 5\nranking: {method: points}\n")
    cfg = load_config(p, check_bots=False)
    settings = cfg.settings
    assert isinstance(settings, EvalSettings)
    assert settings == EvalSettings.model_validate(
        {"preset": "paper", "seed": 5, "ranking": {"method": "points"}})
    assert settings.ranking.shuffles == 3  # the preset, applied once
    assert load_score_config(p) == settings  # `score --config` reads the same settings


def test_score_out_writes_settings_the_stored_run_reader_reads_typed(tmp_path):
    d = logs(tmp_path)
    cfg = load_score_config(tmp_path / "cfg.yaml", "paper")
    out = tmp_path / "run"
    score_logs([d], cfg, out_dir=out)
    setup = StoredSetup(out)
    assert setup.settings == cfg.model_copy(update={"preset": None})  # resolved: no preset
    # the file is a valid settings file for `score --config` too
    assert load_score_config(out / "config.yaml") == setup.settings
    run = Run.load(out)
    assert run.ranking == cfg.ranking and run.seed == cfg.seed
    assert run.weights == {d: 1.0 for d in cfg.scoring.dimensions}


@pytest.mark.parametrize("fixture", ["old_run", "current_run"])
def test_stored_runs_of_earlier_code_read_typed(fixture):
    setup = StoredSetup(DATA / fixture)
    assert setup.tournament is not None and setup.tournament.name == "old-run"
    assert setup.settings == setup.tournament.settings
    assert setup.failures == setup.tournament.failures
    run = Run.load(DATA / fixture)
    assert run.seed == 3 and run.ranking == setup.settings.ranking
    assert run.ranking.shuffles == 5


def test_stored_settings_this_version_refuses_are_read_as_before(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(DATA / "old_run", run_dir)
    data = yaml.safe_load((run_dir / "config.yaml").read_text())
    data["scoring"]["dimensions"].append("a_scorer_since_uninstalled")
    data["scoring"]["weights"] = {"diversity": 2, "a_scorer_since_uninstalled": 1}
    (run_dir / "config.yaml").write_text(yaml.safe_dump(data))
    assert StoredSetup(run_dir).settings is None
    run = Run.load(run_dir)  # read from the mapping, as before settings were typed
    assert run.weights["diversity"] == 2.0 and run.seed == 3 and run.ranking.shuffles == 5


def test_an_unreadable_stored_config_is_the_same_error(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(DATA / "old_run", run_dir)
    (run_dir / "config.yaml").write_text("ranking: [unclosed\n")
    setup = StoredSetup(run_dir)
    assert setup.data is None and setup.settings is None and setup.tournament is None
    with pytest.raises(RunDirError, match=r"config.yaml: cannot read the run's config \("):
        Run.load(run_dir)


def _count_config_reads(monkeypatch):
    reads = []
    real_open = builtins.open

    def spy(file, mode="r", *args, **kwargs):
        if str(file).endswith("config.yaml") and "w" not in mode and "a" not in mode:
            reads.append(str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    return reads


@pytest.mark.parametrize("change", ["ranking", "bot added", "manifest deleted"])
def test_a_resume_reads_the_stored_config_once(tmp_path, monkeypatch, change):
    cfg = make_cfg(tmp_path, exchanges=2, dims=["proactivity"])
    run_tournament(cfg)
    if change == "ranking":
        cfg = cfg.model_copy(update={"ranking": cfg.ranking.model_copy(update={"shuffles": 7})})
    elif change == "bot added":
        cfg = make_cfg(tmp_path, exchanges=2, dims=["proactivity"],
                       bots=[("rich", "rich", 1), ("plain", "plain", 0), ("dull", "dull", 0),
                             ("new", "plain", 1)])
    else:
        (tmp_path / "run" / "manifest.json").unlink()
    reads = _count_config_reads(monkeypatch)
    run_tournament(cfg)
    assert len(reads) == 1, reads


def test_failures_are_compared_typed_keys_absent_from_an_old_run_as_before(tmp_path):
    new = FailurePolicy()
    store = RunDir(tmp_path)
    assert check_failures(store, None, new, 3, allow=False) == []
    assert check_failures(store, FailurePolicy(), new, 3, allow=False) == []
    changed = FailurePolicy(retries=0, max_forfeit_share=0.5)  # a report-only key left out
    assert check_failures(store, changed, new, 0, allow=False) == ["retries"]
    with pytest.raises(RunDirError, match=r"\(retries 0 -> 2\); they change what is played"):
        check_failures(store, changed, new, 3, allow=False)
    # a run stored with no timeout resumed with the default one is not a change of rules
    assert check_failures(store, FailurePolicy(timeout_s=None), new, 3, allow=False) == []
    # a resume compares the keys as written: a key an older run lacks counts as changed
    older = FailurePolicy.model_validate({"retries": 2, "on_failure": "forfeit", "max_chars": 2000})
    with pytest.raises(RunDirError, match=r"\(allow_empty None -> False\)"):
        check_failures(store, older, new, 3, allow=False, as_written=True)
    assert check_failures(store, older, new, 3, allow=True, as_written=True) == ["allow_empty"]
    # (a rebuilt manifest compares the stored tournament, defaults filled in)
    assert check_failures(store, older, new, 3, allow=False) == []


def test_a_resume_compares_the_failures_the_stored_file_sets(tmp_path):
    cfg = make_cfg(tmp_path, exchanges=2, dims=["proactivity"])
    run_tournament(cfg)
    path = tmp_path / "run" / "config.yaml"
    data = yaml.safe_load(path.read_text())
    del data["failures"]["allow_empty"]  # as a run of a version before the key
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert StoredSetup(tmp_path / "run").failures.model_fields_set == set(FailurePolicy.model_fields) - {"allow_empty"}
    with pytest.raises(RunDirError, match=r"'failures' settings changed \(allow_empty None -> False\)"):
        run_tournament(cfg)


def test_the_lab_reads_the_settings_of_a_tournament_file(tmp_path):
    p = tmp_path / "lab.yaml"
    p.write_text("seed: 9\nscoring: {dimensions: [fluency, diversity]}\n")
    lab = load_lab_config(p)
    assert lab.settings == EvalSettings.model_validate(
        {"seed": 9, "scoring": {"dimensions": ["fluency", "diversity"]}})
    assert (lab.scoring, lab.ranking, lab.seed, lab.source) == (
        lab.settings.scoring, lab.settings.ranking, 9, str(p))
    fast = with_ngram_fluency(lab)
    assert fast.scoring.params["fluency"]["backend"] == "ngram" and fast.seed == 9
    assert fast.source == f"{p}, fluency on the n-gram model"
    assert load_lab_config(None).settings == EvalSettings()
