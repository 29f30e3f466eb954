"""A named crew profile: the settings a model's crew runs with, as a small JSON file.

    {"name": "...", "model": "...", "rounds": 3, "retry": "fresh", "temperature": 0.0,
     "retry_temperature": 0.7, "disabled": ["..."], "enabled": ["..."], "note": "..."}

Profiles live in profiles/ at the repository root (`load_profile("NAME")` reads
profiles/NAME.json; a path ending in .json is read as given). `CrewProfile.settings()` builds
the CrewSettings; everything a profile does not name (seed, context sizes, limits) stays as the
base settings have it. bench.evolve writes its winner as one; `--profile NAME` on bench.humaneval
and bench.crew runs one.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from agents.rules.registry import RuleSwitches, switches
from agents.run.runner import CrewSettings

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"
RETRIES = ("fresh", "fix")


@dataclass(frozen=True)
class CrewProfile:
    name: str
    model: str = ""  # the model it was chosen for ("" any)
    rounds: int = 3
    retry: str = "fresh"
    temperature: float = 0.0  # the first try's
    retry_temperature: float = CrewSettings.retry_temperature  # a sampled retry's
    disabled: tuple[str, ...] = ()  # rules on by default, off here
    enabled: tuple[str, ...] = ()  # rules off by default, on here
    note: str = ""  # where it came from

    def __post_init__(self) -> None:
        if not self.name or "/" in self.name or self.name.startswith("."):
            raise ValueError(f"bad profile name {self.name!r}")
        if self.rounds < 1 or self.retry not in RETRIES:
            raise ValueError(f"bad profile {self.name}: rounds {self.rounds}, retry {self.retry!r}")
        self.rules()  # refuses a rule name the registry lacks

    def rules(self) -> RuleSwitches:
        return switches(self.disabled, self.enabled)

    def settings(self, base: CrewSettings | None = None) -> CrewSettings:
        return replace(
            base or CrewSettings(),
            rounds=self.rounds,
            retry=self.retry,
            temperature=self.temperature,
            retry_temperature=self.retry_temperature,
            rules=self.rules(),
        )

    @classmethod
    def from_settings(
        cls, name: str, settings: CrewSettings, *, model: str = "", note: str = ""
    ) -> CrewProfile:
        return cls(
            name=name,
            model=model,
            rounds=settings.rounds,
            retry=settings.retry,
            temperature=settings.temperature,
            retry_temperature=settings.retry_temperature,
            disabled=tuple(sorted(settings.rules.disabled)),
            enabled=tuple(sorted(settings.rules.enabled)),
            note=note,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["disabled"], data["enabled"] = list(self.disabled), list(self.enabled)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrewProfile:
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"unknown profile fields: {', '.join(unknown)}")
        fields = dict(data)
        fields["disabled"] = tuple(sorted(data.get("disabled", ())))
        fields["enabled"] = tuple(sorted(data.get("enabled", ())))
        return cls(**fields)


def profile_path(name: str, folder: Path = PROFILES_DIR) -> Path:
    """profiles/NAME.json, or `name` itself when it is a path to a .json file."""
    if name.endswith(".json"):
        return Path(name)
    return folder / f"{name}.json"


def load_profile(name: str, folder: Path = PROFILES_DIR) -> CrewProfile:
    path = profile_path(name, folder)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        have = sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
        raise ValueError(f"no profile {name!r} ({path}); profiles: {', '.join(have) or 'none'}") from None
    return CrewProfile.from_dict(data)


def save_profile(profile: CrewProfile, folder: Path = PROFILES_DIR) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{profile.name}.json"
    path.write_text(json.dumps(profile.to_dict(), indent=1) + "\n", encoding="utf-8")
    return path


def list_profiles(folder: Path = PROFILES_DIR) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
