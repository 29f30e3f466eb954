import csv


def to_lines(rota):
    """One 'Mon 2024-06-03  Ana' line per day, earliest first."""
    return [f"{day:%a} {day.isoformat()}  {name}" for day, name in rota.items()]


def to_csv(rota, path):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["date", "weekday", "name"])
        for day, name in sorted(rota.items()):
            writer.writerow([day.isoformat(), f"{day:%A}", name])
