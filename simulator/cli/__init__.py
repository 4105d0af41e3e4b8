"""The ``harmonies-sim`` command: one module per group of commands, ``app`` the entry point."""
