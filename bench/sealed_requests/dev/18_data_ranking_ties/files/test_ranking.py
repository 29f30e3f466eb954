from ranking import passed, top_students

STUDENTS = [{"name": "A", "score": 50}, {"name": "B", "score": 90}, {"name": "C", "score": 70}]


def test_top():
    assert top_students(STUDENTS, 2) == ["B", "C"]


def test_passed():
    assert passed(STUDENTS) == ["B", "C"]
