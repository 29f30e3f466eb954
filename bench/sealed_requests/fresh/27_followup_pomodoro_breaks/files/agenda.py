"""Print today's plan: python agenda.py 09:00 6"""

import sys

from pomodoro import plan


def agenda(start, sessions):
    lines = []
    for kind, begins, ends in plan(start, sessions):
        lines.append(f"{begins}-{ends}  {'focus' if kind == 'work' else 'rest'}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(agenda(sys.argv[1], int(sys.argv[2])))
