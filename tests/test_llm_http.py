"""The OpenAI-compatible backend against a fault-injecting loopback server (a real HTTP server
in a thread): slow answers, 500s, 429 with Retry-After, truncated JSON, dropped connections.

Each request's user message names its fault, e.g. ``500x2 a`` = answer HTTP 500 to the first
two attempts at this message, then a completion. The server counts attempts per message and
the most requests it ever had in flight at once.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from idiomkit.errors import BackendError, ConfigError
from idiomkit.llm import GenerationConfig, Job, create_backend, load_template, run_jobs
from idiomkit.llm.cache import AnswerCache
from idiomkit.llm.http import OpenAIBackend

API_KEY = "sk-test-9f8e7d6c5b4a-SECRET"
TEMPLATE = load_template("idiots-detection")
CONFIG = GenerationConfig(max_tokens=32)


class FaultServer:
    """A loopback OpenAI-compatible server whose faults are chosen by the request content."""

    def __init__(self) -> None:
        self.attempts: dict[str, int] = {}
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):  # /v1/models
                server._send(self, 200, {"data": [{"id": "fault-model"}]})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                with server.lock:
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                    server.requests.append(body)
                try:
                    server.answer(self, body)
                finally:
                    with server.lock:
                        server.in_flight -= 1

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @staticmethod
    def _send(handler, status: int, payload, headers: dict | None = None,
              raw: bytes | None = None) -> None:
        data = raw if raw is not None else json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(data)

    @staticmethod
    def completion(content: str) -> dict:
        return {"model": "fault-model", "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 7}}

    def answer(self, handler, body: dict) -> None:
        content = body["messages"][-1]["content"]
        fault, _, _ = content.partition(" ")
        with self.lock:
            attempt = self.attempts[content] = self.attempts.get(content, 0) + 1
        kind, _, times = fault.partition("x")
        failing = times.isdigit() and attempt <= int(times)
        auth = handler.headers.get("Authorization", "")
        if kind == "slow":
            time.sleep(0.15)
        elif failing and kind == "500":
            return self._send(handler, 500, {"error": {"message": "internal error"}})
        elif failing and kind == "503auth":  # a server that echoes the request headers
            return self._send(handler, 503, {"error": f"bad gateway; you sent {auth}"})
        elif failing and kind == "429":
            return self._send(handler, 429, {"error": "rate limited"}, {"Retry-After": "1"})
        elif failing and kind == "trunc":
            return self._send(handler, 200, None, raw=b'{"choices": [{"message": {"content": "')
        elif failing and kind == "drop":
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return None
        elif failing and kind == "hang":
            time.sleep(1.0)
        elif kind == "401":
            return self._send(handler, 401, {"error": f"invalid key {auth}"})
        answer = {"hasIdiom": True, "idiom": content, "seen_auth": auth if kind == "echo" else ""}
        return self._send(handler, 200, self.completion(json.dumps(answer)))


@pytest.fixture
def server():
    srv = FaultServer()
    yield srv
    srv.close()


def _backend(server: FaultServer, **options) -> OpenAIBackend:
    options = {"base_url": server.url, "api_key": API_KEY, "max_retries": 3, "backoff": 0.01,
               "timeout": 5.0, "max_in_flight": 3, **options}
    return create_backend("openai", "fault-model", **options)


def _jobs(contents):
    return [Job(str(i), [{"role": "user", "content": c}]) for i, c in enumerate(contents)]


def test_every_fault_is_retried_and_no_record_is_lost(server, tmp_path):
    contents = ["ok a", "500x2 b", "trunc x1 c", "dropx1 d", "500x1 e", "truncx2 f", "ok g",
                "dropx2 h", "500x3 i", "ok j"]
    contents[2] = "truncx1 c"
    backend = _backend(server)
    outcomes = run_jobs(backend, _jobs(contents), TEMPLATE, CONFIG, progress=False)
    assert [o.id for o in outcomes] == [str(i) for i in range(len(contents))]
    assert all(o.error is None for o in outcomes)
    for outcome, content in zip(outcomes, contents):
        assert json.loads(outcome.completion.text)["idiom"] == content
        fault = content.split(" ")[0]
        expected = 1 + (int(fault.split("x")[1]) if "x" in fault else 0)
        assert outcome.completion.attempts == expected, content
    assert backend.stats["retry_status"] == 6
    assert backend.stats["retry_json"] == 3
    assert backend.stats["retry_connection"] == 3
    assert server.max_in_flight <= 3


def test_retry_after_is_honoured(server):
    backend = _backend(server)
    started = time.monotonic()
    completion = backend.complete([{"role": "user", "content": "429x1 a"}], CONFIG)
    assert completion.attempts == 2
    assert time.monotonic() - started >= 0.95  # the server asked for 1 s


def test_timeouts_are_retried_then_reported_without_losing_the_record(server):
    backend = _backend(server, timeout=0.3, max_retries=1)
    outcomes = run_jobs(backend, _jobs(["hangx1 a", "hangx9 b", "ok c"]), TEMPLATE, CONFIG,
                        progress=False)
    assert outcomes[0].completion.attempts == 2  # timed out once, then answered
    assert outcomes[1].completion is None
    assert outcomes[1].error["code"] == "E705"
    assert "raise --timeout" in outcomes[1].error["message"]
    assert outcomes[2].completion is not None


def test_in_flight_bound_holds_for_many_caller_threads(server):
    backend = _backend(server, max_in_flight=2)
    threads = [threading.Thread(target=backend.complete,
                                args=([{"role": "user", "content": f"slow {i}"}], CONFIG))
               for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(server.requests) == 8
    assert server.max_in_flight == 2


def test_runner_uses_the_bound_as_its_parallelism(server):
    backend = _backend(server, max_in_flight=4)
    outcomes = run_jobs(backend, _jobs([f"slow {i}" for i in range(8)]), TEMPLATE, CONFIG,
                        progress=False)
    assert all(o.completion for o in outcomes)
    assert server.max_in_flight == 4


def test_requests_carry_temperature_zero_seed_and_max_tokens(server):
    backend = _backend(server)
    backend.complete([{"role": "user", "content": "ok a"}], GenerationConfig(seed=7,
                                                                            max_tokens=11))
    body = server.requests[-1]
    assert (body["temperature"], body["seed"], body["max_tokens"]) == (0.0, 7, 11)
    assert body["model"] == "fault-model"


def test_model_defaults_to_the_first_one_the_server_lists(server):
    backend = create_backend("openai", base_url=server.url)
    assert backend.identity()["model"] == "fault-model"


def test_client_errors_are_not_retried(server):
    backend = _backend(server)
    with pytest.raises(BackendError) as info:
        backend.complete([{"role": "user", "content": "401 a"}], CONFIG)
    assert info.value.code == "E703"
    assert "Check the API key" in info.value.message
    assert server.attempts["401 a"] == 1


def test_a_server_that_is_down_stops_the_run_early(tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    backend = create_backend("openai", "m", base_url=f"http://127.0.0.1:{port}/v1",
                             max_retries=0, max_in_flight=1)
    with pytest.raises(BackendError) as info:
        run_jobs(backend, _jobs([f"ok {i}" for i in range(20)]), TEMPLATE, CONFIG,
                 progress=False, abort_after=3)
    assert info.value.code == "E709"
    assert "E701" not in info.value.message or "resume" in info.value.message


def test_missing_base_url_is_a_config_error(monkeypatch):
    for name in ("IDIOMKIT_LLM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ConfigError) as info:
        create_backend("openai", "m").complete([{"role": "user", "content": "x"}], CONFIG)
    assert info.value.code == "E432"


def test_base_url_and_key_come_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("IDIOMKIT_LLM_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    backend = create_backend("openai", "fault-model")
    answer = json.loads(backend.complete([{"role": "user", "content": "echo a"}], CONFIG).text)
    assert answer["seen_auth"] == "Bearer ***"  # sent to the server, redacted in the answer
    assert server.requests[-1]["model"] == "fault-model"


def test_api_key_never_appears_in_logs_errors_cache_or_results(server, tmp_path, caplog,
                                                                capsys):
    from typer.testing import CliRunner

    from idiomkit.cli.app import app

    data = tmp_path / "idiots.csv"
    data.write_text(
        "id,sentence,idiom,label\n"
        "idi01_i1,503authx1 He spilled the beans.,spill the beans,idiomatic\n"
        "idi01_d1,echo The beans spilled.,spill the beans,distractor\n"
        "idi02_i1,503authx9 It was a piece of cake.,a piece of cake,idiomatic\n"
        "idi02_d1,ok She ate a piece of cake.,a piece of cake,distractor\n",
        encoding="utf-8",
    )
    caplog.set_level(logging.DEBUG)
    cache_path = tmp_path / "cache.sqlite"
    result = CliRunner().invoke(app, [
        "eval", "detection", "--system", "llm:fault-model", "--dataset", str(data),
        "--base-url", server.url, "--api-key", API_KEY, "--max-retries", "1",
        "--cache", str(cache_path), "--output", str(tmp_path / "out"), "--no-progress",
        "--format", "json",
    ])
    # one sentence failed for good: the run says so (exit 1) and still scores all four
    assert result.exit_code == 1, result.output
    results = json.loads(result.stdout)
    assert results["n"] == 4 and results["metrics"]["errors"] == 1
    assert any("bad gateway" in r.getMessage() for r in caplog.records)  # retries were logged
    texts = [result.output, capsys.readouterr().err, caplog.text,
             *(r.getMessage() for r in caplog.records)]
    texts += [p.read_text(encoding="utf-8") for p in (tmp_path / "out").iterdir()]
    for text in texts:
        assert API_KEY not in text
    assert API_KEY.encode() not in cache_path.read_bytes()
    for sidecar in tmp_path.glob("cache.sqlite*"):
        assert API_KEY.encode() not in sidecar.read_bytes()
    records = next((tmp_path / "out").glob("*.records.jsonl")).read_text()
    assert "***" in records  # the echoed header and the 503 body were redacted, not dropped
    assert API_KEY not in repr(create_backend("openai", "m", api_key=API_KEY))


def test_answers_are_cached_and_reused(server, tmp_path):
    cache = AnswerCache(tmp_path / "answers.sqlite")
    jobs = _jobs(["ok a", "ok b"])
    first = run_jobs(_backend(server), jobs, TEMPLATE, CONFIG, cache=cache, progress=False)
    sent = len(server.requests)
    second = run_jobs(_backend(server), jobs, TEMPLATE, CONFIG, cache=cache, progress=False)
    assert len(server.requests) == sent  # nothing asked again
    assert [o.completion.text for o in second] == [o.completion.text for o in first]
    assert all(o.completion.cached for o in second)
    # another seed is another question
    run_jobs(_backend(server), jobs, TEMPLATE, GenerationConfig(seed=1, max_tokens=32),
             cache=cache, progress=False)
    assert len(server.requests) == sent + 2


def test_a_malformed_key_is_refused_without_quoting_it(server):
    bad = API_KEY + "\nX-Injected: 1"
    backend = create_backend("openai", "m", base_url=server.url, api_key=bad)
    with pytest.raises(ConfigError) as info:
        backend.complete([{"role": "user", "content": "ok a"}], CONFIG)
    assert info.value.code == "E440" and API_KEY not in str(info.value)
