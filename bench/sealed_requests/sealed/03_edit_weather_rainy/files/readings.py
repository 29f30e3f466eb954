from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Reading:
    day: date
    temperature: float
    conditions: str


def parse_reading(line):
    """'2024-05-01,12.5,light rain' -> Reading"""
    day, temperature, conditions = line.strip().split(",", 2)
    return Reading(date.fromisoformat(day), float(temperature), conditions.strip())


def parse_lines(lines):
    return [parse_reading(line) for line in lines if line.strip() and not line.startswith("#")]
