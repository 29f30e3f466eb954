from timeparse import parse_duration


def end_time(start_minute, duration):
    """Minute of the day a task started at `start_minute` ends, wrapping at midnight."""
    return (start_minute + parse_duration(duration) // 60) % (24 * 60)


def fits(slots, duration):
    """The free slots (in minutes) long enough for the duration."""
    needed = parse_duration(duration) // 60
    return [slot for slot in slots if slot > needed]
