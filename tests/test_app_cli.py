"""`python app.py` as a user runs it: doctor, bad input reported on the CLI and on the page."""

import http.client
import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from gradio_client import Client

from gui.http_guard import TOKEN_HEADER
from gui.launch_guard import host_name
from tests.app_process import free_port, run_app, serve_app


def _last_reply(client: Client, message: str) -> dict:
    history, *_ = client.predict(message, None, api_name="/run")
    return history[-1]


def _text(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(block.get("text", "") for block in content)


def test_doctor_json_has_every_section() -> None:
    result = run_app("doctor", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"gpu", "llama_cpp", "model", "plan", "embedding_model"} <= report.keys()
    assert report["gpu"]["state"] == "no_driver" and report["gpu"]["devices"] == []
    assert report["llama_cpp"]["version"] == "0.3.36" and report["llama_cpp"]["gpu_offload"] is False
    assert report["model"]["architecture"] == "llama" and report["model"]["layers"] == 30
    assert report["model"]["quantization"] == "Q4_1"
    plan = report["plan"]
    assert plan["n_gpu_layers"] == 0 and plan["kv_type"] == "f16"
    # No --n-ctx: the CPU rule's context, at most 8192 (the 135M's trained context too), and why.
    assert 2048 <= plan["n_ctx"] <= 8192 and plan["n_ctx_reason"].startswith("CPU: ")
    for term in ("output_head", "block_weights_total", "kv_cache_total", "compute_buffer_full", "cpu_total"):
        assert plan["terms"][term] > 0
    assert report["embedding_model"]["found"] is True
    assert report["sandbox"]["time_limit"] is True and isinstance(report["sandbox"]["notes"], list)


def test_doctor_text_and_options() -> None:
    result = run_app("doctor", "--n-ctx", "8192", "--kv-cache-type", "q8_0")
    assert result.returncode == 0
    assert "KV cache (q8_0, n_ctx 8192)" in result.stdout and "CPU" in result.stdout
    assert "Context: 8192 tokens (set by --n-ctx or the saved settings)" in result.stdout
    assert "\nSandbox: time, output" in result.stdout


def test_doctor_reports_a_bad_model_without_crashing(tmp_path: Path) -> None:
    bogus = tmp_path / "x.gguf"
    bogus.write_bytes(b"\0" * 100)
    report = json.loads(run_app("doctor", "--json", "--model", str(bogus)).stdout)
    assert "not a GGUF" in report["model"]["error"] and report["plan"] is None


def test_port_in_use_is_one_clear_message() -> None:
    port = free_port()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", port))
        busy.listen()
        started = time.monotonic()
        result = run_app("--no-browser", "--port", str(port), timeout=300)
    assert result.returncode == 2
    assert f"Port {port} on 127.0.0.1 is already in use" in result.stderr
    assert "Traceback" not in result.stderr
    assert time.monotonic() - started < 180  # refused before the model loads; a hang guard, not a speed check


def test_refuses_network_host_without_credentials() -> None:
    result = run_app("--no-browser", "--host", "0.0.0.0", "--port", str(free_port()), timeout=300)
    assert result.returncode == 2 and "without credentials" in result.stderr


def test_malformed_auth_is_refused() -> None:
    result = run_app("--no-browser", "--auth", "justuser", "--port", str(free_port()), timeout=300)
    assert result.returncode == 2 and "USER:PASSWORD" in result.stderr


@pytest.mark.parametrize("case", ["missing", "not_gguf"])
def test_bad_model_is_reported_on_cli_and_page(tmp_path: Path, case: str) -> None:
    model = tmp_path / "model.gguf"
    if case == "not_gguf":
        model.write_text("not a model\n" * 50)
    expected = "not found" if case == "missing" else "not a GGUF"
    with serve_app("--model", str(model), tmp_path=tmp_path) as app:
        reply = _last_reply(app.client(), "hello")
        assert expected in _text(reply)
        deadline = time.monotonic() + 10
        while expected not in app.log() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "error: " in app.log() and expected in app.log()
        assert app.process.poll() is None  # still up


def _status_for_host(port: int, host: str, path: str = "/", token: str = "") -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host, TOKEN_HEADER: token})
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def test_the_loopback_server_answers_only_to_this_machines_names(tmp_path: Path) -> None:
    """A page on another domain that re-points its name at 127.0.0.1 (DNS rebinding) is refused."""
    with serve_app(tmp_path=tmp_path) as app:
        port = urlsplit(app.url).port
        assert port is not None
        for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            assert _status_for_host(port, name, token=app.token)[0] == 200, name
        for path in ("/", "/gradio_api/info"):
            # Refused for its name even with the key (which such a page would not have anyway).
            status, body = _status_for_host(port, f"attacker.example:{port}", path, token=app.token)
            assert status == 400 and "127.0.0.1 or localhost" in body, (path, status)
        assert _status_for_host(port, f"127.0.0.1.attacker.example:{port}", token=app.token)[0] == 400
        # This launch's own name (what the browser opens) is this machine; another *.localhost is not.
        assert _status_for_host(port, app.page_host, token=app.token)[0] == 200
        assert _status_for_host(port, f"lc-0123456789abcdef.localhost:{port}", token=app.token)[0] == 400


def test_host_names_are_read_without_their_port() -> None:
    assert host_name("localhost:7860") == "localhost"
    assert host_name("[::1]:7860") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("Attacker.Example:80") == "attacker.example"


def test_doctor_names_the_installed_coder_as_the_model_in_use_on_a_cpu() -> None:
    from models.catalog import catalog_entry
    from models.model_cache import cached_model_path

    coder = catalog_entry("qwen2.5-coder-0.5b-q4_k_m")
    assert coder is not None and cached_model_path(coder) is not None, (
        "the 0.5B coder must be installed: ./launch.sh test installs it (python app.py download "
        "qwen2.5-coder-0.5b-q4_k_m)"
    )
    report = json.loads(run_app("doctor", "--json", fast_model=False).stdout)
    assert report["model_choice"]["id"] == "qwen2.5-coder-0.5b-q4_k_m"
    assert "no GPU" in report["model_choice"]["reason"]
    assert report["model"]["architecture"] == "qwen2" and report["plan"]["n_gpu_layers"] == 0
    text = run_app("doctor", fast_model=False).stdout
    assert "Model in use: qwen2.5-coder-0.5b-q4_k_m" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["--model", "M", "--n-ctx", "1024", "--workspace", "W", "ask", "hi"],
        ["ask", "hi", "--model", "M", "--n-ctx", "1024", "--workspace", "W"],
        ["--model", "M", "--n-ctx", "1024", "--workspace", "W", "doctor"],
        ["--workspace", "W", "doctor", "--model", "M", "--n-ctx", "1024"],
    ],
)
def test_a_flag_counts_wherever_it_stands(argv: list[str]) -> None:
    from app import build_parser

    args = build_parser().parse_args(argv)
    assert args.model == "M" and args.n_ctx == 1024 and str(args.workspace) == "W"


@pytest.mark.parametrize("command", [["undo"], ["index"], ["search", "q"]])
def test_the_workspace_flag_counts_before_or_after_each_subcommand(command: list[str]) -> None:
    from app import build_parser

    for argv in (["--workspace", "W", *command], [*command, "--workspace", "W"]):
        assert str(build_parser().parse_args(argv).workspace) == "W"


def test_ask_uses_the_model_given_before_the_subcommand(tmp_path: Path) -> None:
    result = run_app("--model", str(tmp_path / "missing.gguf"), "ask", "hi", "--workspace", str(tmp_path))
    assert result.returncode == 1 and "missing.gguf" in result.stderr
