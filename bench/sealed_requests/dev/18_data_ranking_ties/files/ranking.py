def top_students(students, n=3):
    ranked = sorted(students, key=lambda s: s["score"], reverse=True)
    return [s["name"] for s in ranked[:n]]


def passed(students, mark=70):
    return [s["name"] for s in students if s["score"] >= mark]
