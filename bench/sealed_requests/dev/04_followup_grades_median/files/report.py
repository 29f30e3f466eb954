from grades import average, letter
from students import STUDENTS, scores_of


def report_card(name):
    avg = average(scores_of(name))
    return f"{name.title()}: {avg:.1f} ({letter(avg)})"


def class_report():
    return "\n".join(report_card(name) for name in sorted(STUDENTS))


if __name__ == "__main__":
    print(class_report())
