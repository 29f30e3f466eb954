def _clean(text):
    return text.strip().casefold()


class Quiz:
    def __init__(self, questions):
        """questions: (question, answer) pairs; an answer may be a list of accepted answers."""
        self.questions = list(questions)
        self.results = {}  # question index -> right or wrong

    def ask(self, index):
        return self.questions[index][0]

    def answer(self, index, text):
        accepted = self.questions[index][1]
        if isinstance(accepted, str):
            accepted = [accepted]
        right = _clean(text) in {_clean(a) for a in accepted}
        self.results[index] = right
        return right

    def score(self):
        if not self.questions:
            return 0.0
        return round(100 * sum(self.results.values()) / len(self.questions), 1)

    def unanswered(self):
        return [i for i in range(len(self.questions)) if i not in self.results]
