import cli
import pytest


def test_the_defaults():
    args = cli.parse_args(["a.txt"])
    assert list(args.files) == ["a.txt"]
    assert args.count == 10 and args.sort == "name" and not args.verbose


def test_every_option():
    args = cli.parse_args(["a.txt", "b.txt", "--count", "3", "--sort", "size", "--verbose"])
    assert list(args.files) == ["a.txt", "b.txt"]
    assert args.count == 3 and isinstance(args.count, int)
    assert args.sort == "size" and args.verbose


def test_the_options_come_before_the_files_too():
    args = cli.parse_args(["--count", "7", "c.txt"])
    assert list(args.files) == ["c.txt"] and args.count == 7


@pytest.mark.parametrize(
    "argv", [[], ["a.txt", "--sort", "date"], ["a.txt", "--count", "many"]], ids=["no file", "sort", "count"]
)
def test_wrong_arguments_exit(argv):
    with pytest.raises(SystemExit):
        cli.parse_args(argv)
