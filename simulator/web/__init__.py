"""The workbench: a page where a designer edits a scenario's wound table and sees the odds move.

``harmonies-sim serve [SCENARIO | DIR]`` (:mod:`simulator.cli.serve`) starts it on
127.0.0.1 (:mod:`simulator.web.server`). The application (:mod:`simulator.web.app`, Starlette)
serves one page (``templates/page.html``, ``static/``); the page's edits are ``--set``
overrides checked as ``validate`` checks them (:mod:`simulator.web.cells`), answered exactly
or by sampling the trials of ``run`` (:mod:`simulator.web.answer`), in English or French
(:mod:`simulator.web.words`). What it may read and write: :mod:`simulator.web.folder`; who
may ask: :mod:`simulator.web.guard`.
"""
