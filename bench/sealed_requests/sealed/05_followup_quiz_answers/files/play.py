from questions import GEOGRAPHY
from quiz import Quiz


def play(answers, questions=GEOGRAPHY):
    quiz = Quiz(questions)
    for index, text in enumerate(answers):
        quiz.answer(index, text)
    return quiz


if __name__ == "__main__":
    quiz = Quiz(GEOGRAPHY)
    for i in range(len(GEOGRAPHY)):
        quiz.answer(i, input(quiz.ask(i) + " "))
    print(f"score: {quiz.score()}")
