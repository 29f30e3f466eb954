def summarize(readings):
    if not readings:
        raise ValueError("no readings")
    temps = [r.temperature for r in readings]
    return {
        "days": len(readings),
        "min": min(temps),
        "max": max(temps),
        "mean": round(sum(temps) / len(temps), 1),
        "rainy_days": sum("rain" in r.conditions.lower() for r in readings),
    }
