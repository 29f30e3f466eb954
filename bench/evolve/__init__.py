"""The evolve loop: a crew profile searched on HumanEval's dev half: `python -m bench.evolve` (cli.py)."""
