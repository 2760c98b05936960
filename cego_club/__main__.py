"""``python -m cego_club``: the same as ``cego-club`` (where the console script is not on
PATH, e.g. an environment that is not activated)."""

import sys

from cego_club.cli import main

if __name__ == "__main__":
    sys.exit(main())
