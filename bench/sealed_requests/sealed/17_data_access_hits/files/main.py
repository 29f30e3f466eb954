from analyze import errors, unique_visitors
from load import read_rows


def main(path="access.csv"):
    rows = read_rows(path)
    print(f"{len(rows)} requests from {unique_visitors(rows)} visitors, {len(errors(rows))} errors")


if __name__ == "__main__":
    main()
