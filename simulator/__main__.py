"""Allow ``python -m simulator``."""

from simulator.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
