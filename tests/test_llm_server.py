"""Integration: the IdioTS detection task end to end against a REAL OpenAI-compatible server
(llama-cpp-python's, started on loopback with the packaged SmolLM2-135M GGUF) and against the
local llama.cpp backend; IDEM's emotion and generation tasks on the local backend.

Fourteen short requests in all (max_tokens <= 24; SmolLM2 runs ~100 tokens/s on 2 free
threads), so the module takes seconds on an idle machine.
"""

from __future__ import annotations

import json
import os
import threading

import pytest
from typer.testing import CliRunner

from idiomkit.datasets import Dataset, Example
from idiomkit.evaluate.detection import evaluate_detection, markdown_table
from idiomkit.llm import GenerationConfig, create_backend
from idiomkit.llm.cache import AnswerCache
from idiomkit.llm.detector import LLMDetector
from idiomkit.llm.idem import generate_idem_data, zero_shot_emotion
from idiomkit.llm.server import LocalServer

SHORT = GenerationConfig(max_tokens=16)
TOY = Dataset("toy", "test", [
    Example("1", "He finally spilled the beans about the party.", idiom="spill the beans",
            label="idiomatic"),
    Example("2", "The bag split and the beans spilled on the floor.", idiom="spill the beans",
            label="literal"),
    Example("3", "We all have to tighten our belts this year.", idiom="tighten one's belt",
            label="idiomatic"),
    Example("4", "He tightened his belt by one notch.", idiom="tighten one's belt",
            label="literal"),
], files=[], checksum="sha256:0")


@pytest.fixture(scope="module")
def server():
    with LocalServer("smollm2-135m", n_ctx=1024) as running:
        yield running


@pytest.fixture(scope="module")
def local_backend():
    backend = create_backend("llamacpp", "smollm2-135m", n_ctx=1024)
    yield backend
    backend.close()


def test_detection_end_to_end_against_the_real_server(server, tmp_path):
    backend = create_backend("openai", base_url=server.base_url, max_in_flight=2, timeout=120)
    cache = AnswerCache(tmp_path / "answers.sqlite")
    detector = LLMDetector(backend, config=SHORT, cache=cache)
    results, records = evaluate_detection(detector, TOY, progress=False)
    assert detector.usage["answered"] == 4 and detector.usage["from_cache"] == 0
    assert results["configuration"]["system"] == "llm:smollm2-135m"
    assert results["configuration"]["template"] == "idiots-detection.v1"
    assert [r["id"] for r in records] == ["1", "2", "3", "4"]
    assert all(r["status"] in ("ok", "inferred", "unparseable") and r["answer"] for r in records)
    metrics = results["metrics"]
    counts = results["counts"]
    assert counts["tp"] + counts["fp"] + counts["tn"] + counts["fn"] == 4
    assert 0.0 <= metrics["balanced_accuracy"] <= 1.0
    assert "| llm:smollm2-135m (toy) |" in markdown_table([results])
    # a rerun is answered from the cache: same answers, no request sent
    again = LLMDetector(create_backend("openai", base_url=server.base_url), config=SHORT,
                        cache=cache)
    results_again, records_again = evaluate_detection(again, TOY, progress=False)
    assert again.usage["from_cache"] == 4
    assert [r["answer"] for r in records_again] == [r["answer"] for r in records]
    assert results_again["metrics"] == results["metrics"]


def test_server_answers_are_deterministic_at_temperature_zero(server):
    backend = create_backend("openai", base_url=server.base_url)
    messages = [{"role": "user", "content": "Say hello."}]
    config = GenerationConfig(max_tokens=8, seed=3)
    assert backend.complete(messages, config).text == backend.complete(messages, config).text


def test_server_in_flight_bound_with_parallel_callers(server):
    backend = create_backend("openai", base_url=server.base_url, max_in_flight=2)
    answers: list[str] = []
    threads = [threading.Thread(target=lambda i=i: answers.append(backend.complete(
        [{"role": "user", "content": f"Count to {i}."}], GenerationConfig(max_tokens=6)).text))
        for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 3


def test_local_backend_runs_idem_emotion_and_generation(local_backend):
    example = Example("e1", "When he saw the mess in his room, he went bananas.",
                      idiom="go bananas", idiom_id="7", label="Anger")
    for aware in (False, True):
        out = zero_shot_emotion(local_backend, [example], aware=aware,
                                definitions={"7": "To get angry; to go mad."},
                                config=GenerationConfig(max_tokens=6), progress=False)
        assert len(out["predictions"]) == 1
        assert out["predictions"][0]["status"] in ("ok", "inferred", "unparseable")
    generated = generate_idem_data(local_backend, ["spill the beans"],
                                   config=GenerationConfig(max_tokens=24), progress=False)
    counts = generated["counts"]
    assert counts["idioms"] == 1 and counts.get("failed", 0) == 0
    # every generated line is accounted for: kept, dropped (label outside the 36) or unlabelled
    assert counts["kept"] == len(generated["sentences"])
    assert counts["dropped"] == len(generated["dropped"])


def test_cli_detection_with_a_packaged_model(tmp_path, monkeypatch):
    from idiomkit.cli.app import app

    for name in ("IDIOMKIT_LLM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    data = tmp_path / "idiots.csv"
    data.write_text("id,sentence,idiom,label\n"
                    "a,He finally spilled the beans.,spill the beans,idiomatic\n"
                    "b,The beans spilled on the floor.,spill the beans,literal\n",
                    encoding="utf-8")
    result = CliRunner().invoke(app, [
        "eval", "detection", "--system", "llm:smollm2-135m", "--dataset", str(data),
        "--max-tokens", "16", "--cache", str(tmp_path / "c.sqlite"), "--format", "json",
        "--no-progress", "--output", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout)
    assert results["configuration"]["backend"]["backend"] == "idiomkit.llm.llamacpp.v1"
    assert set(results["metrics"]) >= {"accuracy", "balanced_accuracy", "specificity"}
    assert os.path.getsize(tmp_path / "c.sqlite") > 0
    records = [json.loads(line) for line in
               next((tmp_path / "out").glob("*.records.jsonl")).read_text().splitlines()]
    assert [r["id"] for r in records] == ["a", "b"] and all(r["answer"] for r in records)
