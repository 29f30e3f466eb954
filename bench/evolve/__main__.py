import sys

from bench.evolve.cli import main

sys.exit(main())
