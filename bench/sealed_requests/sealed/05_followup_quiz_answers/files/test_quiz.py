from quiz import Quiz

Q = [("2+2?", "4"), ("Colour of the sky?", "blue")]


def test_right_and_wrong():
    quiz = Quiz(Q)
    assert quiz.answer(0, "4")
    assert not quiz.answer(1, "green")


def test_unanswered():
    quiz = Quiz(Q)
    quiz.answer(1, "blue")
    assert quiz.unanswered() == [0]
