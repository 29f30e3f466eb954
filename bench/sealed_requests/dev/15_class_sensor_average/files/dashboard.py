from alerts import check
from sensor import Sensor


def build(readings):
    sensors = {}
    for name, value in readings:
        sensors.setdefault(name, Sensor(name)).add(value)
    return sensors


def lines(sensors, limit=30.0):
    out = []
    for name in sorted(sensors):
        sensor = sensors[name]
        out.append(f"{name}: {sensor.latest():.1f}{sensor.unit}")
        warning = check(sensor, limit)
        if warning:
            out.append("  ! " + warning)
    return out


if __name__ == "__main__":
    print("\n".join(lines(build([("attic", 31.5), ("cellar", 12.0), ("attic", 33.0)]))))
