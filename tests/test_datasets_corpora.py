"""Readers of the idiomatic-vs-literal corpora: AStitch (A and B), SemEval-2022 Task 2 A, EPIE,
PIE-English. Counts are those of each corpus's SOURCE.md; derived splits must partition ``all``.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from idiomkit.datasets import load_dataset
from idiomkit.datasets._common import find_span, split_of
from idiomkit.errors import DataError

A_SPLITS = ("train_zero_shot", "train_one_shot", "train_few_shot", "dev", "test")


@functools.cache
def _load(root: Path, name: str, split: str):
    return load_dataset(name, split, data_dir=root)


@pytest.fixture(scope="module")
def load(shared_data_dir):
    return functools.partial(_load, shared_data_dir)


# --- real data: counts and label balance -----------------------------------------------------

# (dataset, split) -> (rows, idiomatic, literal), from the SOURCE.md files
COUNTS = {
    ("astitch", "train_zero_shot"): (3327, 1762, 1565),
    ("astitch", "train_one_shot"): (87, 32, 55),
    ("astitch", "train_few_shot"): (282, 97, 185),
    ("astitch", "dev"): (466, 182, 284),
    ("astitch", "test"): (483, 149, 334),
    ("astitch-pt", "train_zero_shot"): (1164, 773, 391),
    ("astitch-pt", "train_one_shot"): (53, 28, 25),
    ("astitch-pt", "train_few_shot"): (156, 87, 69),
    ("astitch-pt", "dev"): (273, 154, 119),
    ("astitch-pt", "test"): (279, 165, 114),
    ("semeval-a", "train_zero_shot"): (4491, 2535, 1956),
    ("semeval-a", "dev"): (739, 336, 403),
    ("semeval-a", "eval"): (762, 149 + 165, 334 + 114),
    ("semeval-a", "train_one_shot_test"): (209, 118, 91),
    ("epie-formal", "all"): (3136, 2761, 375),
    ("pie-english", "all"): (18984, 17844, 1140),
}


@pytest.mark.data
@pytest.mark.parametrize("name, split", sorted(COUNTS))
def test_counts_and_labels(load, name, split):
    dataset = load(name, split)
    rows, idiomatic, literal = COUNTS[(name, split)]
    labels = Counter(e.label for e in dataset)
    assert (len(dataset), labels["idiomatic"], labels["literal"]) == (rows, idiomatic, literal)
    assert all(e.meta["source"] == name and e.idiom for e in dataset)
    assert {e.meta["raw_label"] for e in dataset} <= {"0", "1"} or name == "pie-english"


# (dataset, split) -> (rows, positives, groups), from astitch/SOURCE.md
B_COUNTS = {
    ("astitch-1b", "train_zero_shot"): (12563, 3327, 3327),
    ("astitch-1b", "train_one_shot"): (323, 87, 87),
    ("astitch-1b", "train_few_shot"): (1003, 282, 282),
    ("astitch-1b", "dev"): (1685, 466, 466),
    ("astitch-1b", "test"): (1687, 483, 483),
    ("astitch-1b-pt", "train_zero_shot"): (4675, 1179, 1164),
    ("astitch-1b-pt", "train_one_shot"): (208, 53, 53),
    ("astitch-1b-pt", "train_few_shot"): (608, 156, 156),
    ("astitch-1b-pt", "dev"): (1065, 273, 273),
    ("astitch-1b-pt", "test"): (1091, 279, 279),
}


@pytest.mark.data
@pytest.mark.parametrize("name, split", sorted(B_COUNTS))
def test_subtask_b_pairs(load, name, split):
    dataset = load(name, split)
    rows, positives, groups = B_COUNTS[(name, split)]
    assert Counter(e.label for e in dataset) == {"1": positives, "0": rows - positives}
    by_group: dict[str, list] = {}
    for example in dataset:
        by_group.setdefault(example.meta["group"], []).append(example)
    assert len(by_group) == groups
    gold_per_group = Counter()
    for members in by_group.values():
        # one example expanded: same sentence and compound, every candidate list has these two
        assert len({(e.text, e.idiom) for e in members}) == 1
        assert {"Proper Noun", "Meta Usage"} <= {e.meta["paraphrase"] for e in members}
        # the sense inventory names exactly one candidate the compound's literal meaning
        senses = Counter(e.meta["sense"] for e in members)
        assert (senses["literal"], senses["proper-noun"], senses["meta-usage"]) == (1, 1, 1)
        assert senses["non-literal"] == len(members) - 3
        gold_per_group[sum(e.label == "1" for e in members)] += 1
    # upstream: 15 PT zero-shot examples have two gold meanings, every other exactly one
    assert gold_per_group == Counter({1: groups - (positives - groups), 2: positives - groups})
    assert all(e.idiom and "previous" in e.meta for e in dataset)


@pytest.mark.data
def test_semeval_test_has_no_gold_but_submission_ids(load, shared_data_dir):
    dataset = load("semeval-a", "test")
    assert len(dataset) == 2342 and {e.label for e in dataset} == {None}
    assert Counter(e.meta["language"] for e in dataset) == {"EN": 916, "PT": 713, "GL": 713}
    template = shared_data_dir / "semeval2022_task2/SubTaskA/TestData/test_submission_format.csv"
    ids = {line.split(",")[0] for line in template.read_text(encoding="utf-8").splitlines()[1:]}
    assert {e.meta["official_id"] for e in dataset} == ids


@pytest.mark.data
def test_semeval_eval_gold_per_language(load):
    labels = Counter((e.meta["language"], e.meta["raw_label"]) for e in load("semeval-a", "eval"))
    assert labels == {("EN", "0"): 149, ("EN", "1"): 334, ("PT", "0"): 165, ("PT", "1"): 114}


@pytest.mark.data
@pytest.mark.parametrize("name", ["epie-formal", "epie-static", "pie-english"])
def test_derived_splits_partition_all(load, name):
    everything = load(name, "all")
    parts = [load(name, split) for split in ("train", "dev", "test")]
    assert sum(len(p) for p in parts) == len(everything)
    assert set().union(*({e.id for e in p} for p in parts)) == {e.id for e in everything}
    texts = [{e.text for e in p} for p in parts]
    assert not (texts[0] & texts[1] or texts[0] & texts[2] or texts[1] & texts[2])
    assert 0.78 < len(parts[0]) / len(everything) < 0.82


@pytest.mark.data
def test_epie_static_is_unlabelled_with_tagged_spans(load):
    dataset = load("epie-static", "all")
    assert len(dataset) == 21891 and {e.label for e in dataset} == {None}
    assert sum("spans" in e.meta for e in dataset) == 5


# --- real data: spans and context -------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize(
    "name, split, max_missing",
    [("astitch", "train_zero_shot", 4), ("astitch-pt", "train_zero_shot", 1),
     ("semeval-a", "test", 0), ("epie-formal", "all", 0), ("epie-static", "all", 0),
     ("pie-english", "all", 822)],
)
def test_spans_index_the_text(load, name, split, max_missing):
    dataset = load(name, split)
    missing = 0
    for example in dataset:
        if "span" not in example.meta:
            missing += 1
            continue
        start, end = example.meta["span"]
        assert 0 <= start < end <= len(example.text)
        covered = example.text[start:end]
        assert covered == covered.strip()
        if not name.startswith("epie"):  # EPIE spans come from tags, not from the idiom form
            assert find_span(covered, example.idiom) == (0, len(covered))
    assert missing == max_missing


@pytest.mark.data
def test_epie_span_from_tags(load):
    first = load("epie-formal", "all").examples[0]
    start, end = first.meta["span"]
    assert (first.id, first.idiom, first.text[start:end]) == (
        "formal-1", "keep [pron] eye on", "keeps an eye on"
    )


@pytest.mark.data
def test_astitch_context_is_cut_from_the_joined_sentence(load):
    first = load("astitch", "dev").examples[0]
    assert first.text.startswith("Are these interruptions of the good life")
    assert first.meta["previous"].startswith("Does the plumbing predictably rebel")
    assert first.meta["next"].startswith("Not at all , says James von Klemperer")
    assert first.text[slice(*first.meta["span"])] == "high life"


@pytest.mark.data
def test_astitch_context_agrees_with_semeval_fields(load):
    # SemEval's train/dev/eval are AStitch's train/dev/test with Previous/Next kept apart
    semeval = {(e.text, e.idiom): e for e in load("semeval-a", "dev")}
    for example in load("astitch", "dev"):
        other = semeval[(example.text, example.idiom)]
        assert example.label == other.label
        assert (example.meta["previous"].split(), example.meta["next"].split()) == (
            other.meta["previous"].split(), other.meta["next"].split()
        )


@pytest.mark.data
def test_pie_english_skips_idiom_headers(load):
    first = load("pie-english", "all").examples[0]
    assert (first.id, first.idiom, first.meta["meaning"], first.meta["raw_label"]) == (
        "pie-2", "cold feet", "become scared", "Euphemism"
    )


# --- helpers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expression, covered",
    [
        ("Os efeitos especiais foram bons.", "efeito especial", "efeitos especiais"),
        ("Branson would drop his guard", "drop your guard", "drop his guard"),
        ("Two cable cars and ropeways", "cable car", "cable cars"),
        ("He bit the bullet.", "bite the bullet", "bit the bullet"),
        ("The Big Cheese of pizza", "big cheese", "Big Cheese"),
    ],
)
def test_find_span_variants(text, expression, covered):
    start, end = find_span(text, expression)
    assert text[start:end] == covered


def test_find_span_needs_whole_words():
    assert find_span("the bigcheese arrived", "big cheese") is None
    assert find_span("a cartoon", "car") is None


def test_split_of_is_deterministic_and_near_80_10_10():
    counts = Counter(split_of(f"sentence number {i}") for i in range(5000))
    assert split_of("sentence number 7") == split_of("sentence number 7")
    assert 3850 < counts["train"] < 4150 and 400 < counts["dev"] < 600


# --- malformed files: coded errors naming file and line ----------------------------------------


def _astitch(root: Path, included: str, excluded: str) -> Path:
    base = root / "astitch/Dataset/Task1/SubTaskA/EN"
    for folder, text in (("ContextIncluded_IdiomIncluded", included),
                         ("ContextExcluded_IdiomIncluded", excluded)):
        (base / folder).mkdir(parents=True, exist_ok=True)
        (base / folder / "dev.csv").write_text(text, encoding="utf-8")
    return root


def test_astitch_tiny_fixture_reads(tmp_path):
    root = _astitch(
        tmp_path,
        'label,sentence1,sentence2\n0,"Before. He is a big fish here. After.",big fish\n',
        "label,sentence1,sentence2\n0,He is a big fish here.,big fish\n",
    )
    (example,) = load_dataset("astitch", "dev", data_dir=root)
    assert (example.label, example.meta["previous"], example.meta["next"]) == (
        "idiomatic", "Before.", "After."
    )
    assert example.meta["span"] == [8, 16]


INCLUDED = (
    'label,sentence1,sentence2\n0,"Before. He is a big fish here. After.",big fish\n'
    "2,Also a big fish.,big fish\n"
)


@pytest.mark.parametrize(
    "excluded, code, where",
    [
        ("label,sentence1\n0,He is a big fish here.\n", "E310", "no column 'sentence2'"),
        ("label,sentence1,sentence2\n0,He is a big fish here.,big fish\n"
         ",Also a big fish.,big fish\n", "E311", "line 3"),
        ("label,sentence1,sentence2\n0,He is a big fish here.,big fish\n"
         "2,Also a big fish.,big fish\n", "E312", "line 3"),
        ("label,sentence1,sentence2\n0,Another sentence.,big fish\n"
         "2,Also a big fish.,big fish\n", "E315", "line 2"),
        ("label,sentence1,sentence2\n0,He is a big fish here.,big fish\n", "E315", "1 rows"),
    ],
)
def test_astitch_malformed(tmp_path, excluded, code, where):
    root = _astitch(tmp_path, INCLUDED, excluded)
    with pytest.raises(DataError) as info:
        load_dataset("astitch", "dev", data_dir=root)
    assert info.value.code == code
    assert where in info.value.message and "ContextExcluded_IdiomIncluded" in info.value.message


def test_semeval_gold_without_row(tmp_path):
    folder = tmp_path / "semeval2022_task2/SubTaskA/Data"
    folder.mkdir(parents=True)
    (folder / "dev.csv").write_text(
        "ID,Language,MWE,Previous,Target,Next\n7,EN,big fish,,He is a big fish.,\n",
        encoding="utf-8",
    )
    (folder / "dev_gold.csv").write_text(
        "ID,DataID,Language,Label\n8,dev.EN.1.1,EN,0\n", encoding="utf-8"
    )
    with pytest.raises(DataError) as info:
        load_dataset("semeval-a", "dev", data_dir=tmp_path)
    assert info.value.code == "E316" and "ID 7" in info.value.message
    assert "line 2" in info.value.message and "dev_gold.csv" in info.value.message


def _epie(root: Path, words: str, tags: str, candidates: str, labels: str) -> Path:
    folder = root / "epie/Formal_Idioms_Corpus"
    folder.mkdir(parents=True)
    for part, text in (("Words", words), ("Tags", tags), ("Candidates", candidates),
                       ("Labels", labels)):
        (folder / f"Formal_Idioms_{part}.txt").write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "tags, labels, code, where",
    [
        ("O B-IDIOM I-IDIOM\nO B-IDIOM O O\n", "1\n0\n", "E313",
         "Tags.txt', line 2: 4 tags for 3 tokens"),
        ("O B-IDIOM I-IDIOM\nO I-IDIOM O\n", "1\n0\n", "E314", "Tags.txt', line 2"),
        ("O B-IDIOM I-IDIOM\nO O O\n", "1\n0\n", "E314", "line 2: no B-IDIOM"),
        ("O B-IDIOM I-IDIOM\nO B-IDIOM O\n", "1\nx\n", "E312", "Labels.txt', line 2"),
        ("O B-IDIOM I-IDIOM\nO B-IDIOM O\n", "1\n", "E313", "line counts differ"),
    ],
)
def test_epie_malformed(tmp_path, tags, labels, code, where):
    root = _epie(tmp_path, "I spill beans\nWe kick it\n", tags, "spill beans\nkick\n", labels)
    with pytest.raises(DataError) as info:
        load_dataset("epie-formal", "all", data_dir=root)
    assert info.value.code == code and where in info.value.message


def _pie(root: Path, text: str) -> Path:
    (root / "pie_english").mkdir(parents=True)
    (root / "pie_english/idiomscorpus.csv").write_text(text, encoding="utf-8")
    return root


PIE_HEADER = "id,token,pos,class,meaning,idiomliteral\n"


def test_pie_tiny_fixture_reads(tmp_path):
    root = _pie(tmp_path, PIE_HEADER + "1,cold,JJ,Euphemism,become scared,Yes\n,feet,NNS,,,\n"
                "2,Got,NNP,Literal,,\n,cold,JJ,,,\n,feet,NNS,,,\n")
    (example,) = load_dataset("pie-english", "all", data_dir=root)
    assert (example.text, example.label, example.meta["span"]) == ("Got cold feet", "literal",
                                                                    [4, 13])


@pytest.mark.parametrize(
    "body, code, where",
    [
        ("1,cold,JJ,Euphemism,become scared,\n,feet,NNS,,,\n2,Got,NNP,Funny,,\n",
         "E312", "line 4: unknown class 'Funny'"),
        (",cold,JJ,,,\n", "E317", "line 2"),
        ("1,cold,JJ,Euphemism,,\n2,Got,NNP,Literal,,\n", "E317", "line 2"),
        ("1,cold,JJ,Euphemism,become scared,\n2,,NNP,Literal,,\n", "E311", "line 3"),
    ],
)
def test_pie_malformed(tmp_path, body, code, where):
    root = _pie(tmp_path, PIE_HEADER + body)
    with pytest.raises(DataError) as info:
        load_dataset("pie-english", "all", data_dir=root)
    assert info.value.code == code and where in info.value.message
    assert "idiomscorpus.csv" in info.value.message
