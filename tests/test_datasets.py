from __future__ import annotations

import doctest
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from idiomkit.datasets import (
    Example,
    available_datasets,
    base,
    checksum,
    load_dataset,
    register_dataset,
)
from idiomkit.errors import ConfigError, DataError

HEADER = ",idiom_id,idiom,sentence,emotion\n"


@pytest.fixture(scope="module")
def data_dir(shared_data_dir) -> Path:
    root = shared_data_dir
    if not (root / "idem").is_dir():
        pytest.skip(f"no idem/ folder in the data directory {root}")
    return root


def write_idem(root: Path, train: str | None = None, test: str | None = None) -> Path:
    folder = root / "idem"
    folder.mkdir(parents=True, exist_ok=True)
    if train is not None:
        (folder / "idem_train.csv").write_text(train, encoding="utf-8")
    if test is not None:
        (folder / "idem_test.csv").write_text(test, encoding="utf-8")
    return root


TINY_TRAIN = HEADER + (
    '0,7,spill the beans,"He spilled the beans, sadly.",Regret\n'
    "3,8,break the ice,She broke the ice.,Relief\n"
)
TINY_TEST = HEADER + "0,7,spill the beans,They spilled the beans.,Shock\n"


# --- the real IDEM files ------------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize("split, rows", [("train", 8729), ("test", 956), ("train+test", 9685)])
def test_idem_row_counts(data_dir, split, rows):
    dataset = load_dataset("idem", split, data_dir=data_dir)
    assert (dataset.name, dataset.split, len(dataset.examples)) == ("idem", split, rows)
    assert len({e.id for e in dataset.examples}) == rows


@pytest.mark.data
def test_idem_test_records_and_checksum(data_dir):
    dataset = load_dataset("idem", "test", data_dir=data_dir)
    first = dataset.examples[0]
    assert first == Example(
        id="test-0",
        text="The detective jotted down clues with fascination, getting closer to solving "
        "the mystery.",
        idiom="jot down",
        idiom_id="1954",
        label="Fascination",
    )
    assert first.meta == {"split": "test", "index": 0}
    assert len({e.label for e in dataset.examples}) == 35  # Lust has no test sentence
    assert dataset.files == [data_dir / "idem" / "idem_test.csv"]
    # one file: the checksum is that file's SHA-256, as listed in the dataset's manifest
    manifest = (data_dir / "idem" / "MANIFEST.sha256").read_text()
    digest = dataset.checksum.removeprefix("sha256:")
    assert any(
        line.startswith(digest) and "idem_test.csv" in line for line in manifest.splitlines()
    )


@pytest.mark.data
def test_idem_train_plus_test_reads_train_first(data_dir):
    dataset = load_dataset("idem", "train+test", data_dir=data_dir)
    assert dataset.examples[0].meta["split"] == "train"
    assert dataset.examples[-1].meta["split"] == "test"
    assert [p.name for p in dataset.files] == ["idem_train.csv", "idem_test.csv"]
    assert dataset.checksum == checksum(dataset.files)


# --- tiny files in tmp_path ---------------------------------------------------------------


def test_missing_file_raises_e302(tmp_path):
    write_idem(tmp_path, train=TINY_TRAIN)  # no test file
    with pytest.raises(DataError) as info:
        load_dataset("idem", "test", data_dir=tmp_path)
    assert info.value.code == "E302"
    assert "idem_test.csv" in str(info.value)


def test_train_plus_test_fails_before_reading_when_a_file_is_missing(tmp_path):
    write_idem(tmp_path, train=TINY_TRAIN)
    with pytest.raises(DataError, match="E302"):
        load_dataset("idem", "train+test", data_dir=tmp_path)


def test_tiny_files_read_with_ids_labels_and_checksum(tmp_path):
    write_idem(tmp_path, train=TINY_TRAIN, test=TINY_TEST)
    dataset = load_dataset("idem", "train+test", data_dir=tmp_path)
    assert [e.id for e in dataset] == ["train-0", "train-3", "test-0"]
    assert dataset.examples[0].text == "He spilled the beans, sadly."
    assert [e.label for e in dataset] == ["Regret", "Relief", "Shock"]
    assert dataset.checksum == checksum(
        [tmp_path / "idem" / "idem_train.csv", tmp_path / "idem" / "idem_test.csv"]
    )


def test_data_dir_from_environment(tmp_path, monkeypatch):
    write_idem(tmp_path, test=TINY_TEST)
    monkeypatch.setenv("IDIOMKIT_DATA", str(tmp_path))
    assert len(load_dataset("idem", "test")) == 1


def test_missing_column_names_file_and_column(tmp_path):
    write_idem(tmp_path, test=",idiom_id,idiom,sentence\n0,7,spill the beans,They did.\n")
    with pytest.raises(DataError) as info:
        load_dataset("idem", "test", data_dir=tmp_path)
    assert info.value.code == "E304"
    assert "idem_test.csv" in str(info.value) and "'emotion'" in str(info.value)


def test_row_without_a_value_names_file_line_and_column(tmp_path):
    write_idem(tmp_path, test=TINY_TEST + "1,8,break the ice\n")
    with pytest.raises(DataError) as info:
        load_dataset("idem", "test", data_dir=tmp_path)
    assert info.value.code == "E305"
    message = str(info.value)
    assert "idem_test.csv" in message and "line 3" in message and "'sentence'" in message


def test_duplicate_ids_are_a_data_error(tmp_path):
    write_idem(tmp_path, test=TINY_TEST + TINY_TEST.splitlines(keepends=True)[1])
    with pytest.raises(DataError, match="E306"):
        load_dataset("idem", "test", data_dir=tmp_path)


def test_unknown_dataset_lists_available_ones():
    with pytest.raises(ConfigError) as info:
        load_dataset("magpie", "test")
    assert info.value.code == "E403"
    assert "'magpie'" in str(info.value) and "idem" in str(info.value)


def test_unknown_split_lists_available_ones(tmp_path):
    with pytest.raises(ConfigError) as info:
        load_dataset("idem", "dev", data_dir=tmp_path)
    assert info.value.code == "E404"
    assert "train, test, train+test" in str(info.value)


class _LinesReader:
    """A second corpus, one sentence per line: what adding a corpus module takes."""

    name = "lines-test-corpus"
    splits = ("all",)

    def files(self, split: str) -> list[tuple[str, ...]]:
        return [("lines", "sentences.txt")]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        for path in paths:
            for no, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                yield Example(id=str(no), text=line)


def test_a_registered_reader_is_loaded_by_name(tmp_path):
    (tmp_path / "lines").mkdir()
    (tmp_path / "lines" / "sentences.txt").write_text("one\ntwo\n", encoding="utf-8")
    register_dataset(_LinesReader())
    try:
        assert "lines-test-corpus" in available_datasets()
        dataset = load_dataset("lines-test-corpus", "all", data_dir=tmp_path)
        assert [e.text for e in dataset] == ["one", "two"]
        assert dataset.examples[0].idiom is None and dataset.examples[0].meta == {}
    finally:
        base._REGISTRY.pop("lines-test-corpus", None)


def test_examples_are_frozen_and_hashable():
    example = Example(id="1", text="x", meta={"a": 1})
    with pytest.raises(AttributeError):
        example.text = "y"  # type: ignore[misc]
    assert hash(example) == hash(Example(id="1", text="x"))


def test_base_doctests_pass():
    assert doctest.testmod(base).failed == 0
