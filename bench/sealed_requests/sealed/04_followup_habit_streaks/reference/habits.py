from datetime import date, timedelta


def current_streak(dates, today=None):
    """Consecutive days up to today (or yesterday, if today isn't done yet)."""
    today = today or date.today()
    done = set(dates)
    day = today if today in done else today - timedelta(days=1)
    streak = 0
    while day in done:
        streak += 1
        day -= timedelta(days=1)
    return streak


def longest_streak(dates):
    best = run = 0
    previous = None
    for day in sorted(set(dates)):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return best


def completion_rate(dates, start, end):
    days = (end - start).days + 1
    hits = len({d for d in dates if start <= d <= end})
    return round(hits / days, 3) if days > 0 else 0.0
