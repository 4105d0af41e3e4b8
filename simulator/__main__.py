"""Allow ``python -m simulator``."""

from simulator.cli.app import main

if __name__ == "__main__":  # pragma: no cover
    main()
