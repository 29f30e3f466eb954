class Quiz:
    def __init__(self, questions):
        """questions: (question, answer) pairs."""
        self.questions = list(questions)
        self.results = {}  # question index -> right or wrong

    def ask(self, index):
        return self.questions[index][0]

    def answer(self, index, text):
        right = text == self.questions[index][1]
        self.results[index] = right
        return right

    def score(self):
        return sum(self.results.values())

    def unanswered(self):
        return [i for i in range(len(self.questions)) if i not in self.results]
