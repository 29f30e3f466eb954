def check(sensor, limit):
    """A message when the latest reading is over the limit, else None."""
    latest = sensor.latest()
    if latest is not None and latest > limit:
        return f"{sensor.name}: {latest:.1f}{sensor.unit} is over {limit}{sensor.unit}"
    return None
