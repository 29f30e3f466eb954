from parking import fee


def receipt(plate, minutes):
    cents = fee(minutes)
    hours, mins = divmod(minutes, 60)
    return f"{plate}: {hours}h{mins:02d}m -> {cents // 100}.{cents % 100:02d}"
