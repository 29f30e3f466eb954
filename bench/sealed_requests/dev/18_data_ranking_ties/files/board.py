from ranking import passed, top_students
from roster import load


def main(path="students.json"):
    students = load(path)
    print("top: " + ", ".join(top_students(students)))
    print(f"{len(passed(students))} of {len(students)} passed")


if __name__ == "__main__":
    main()
