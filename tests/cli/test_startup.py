"""The command line starts quickly: a command imports only what it needs (issue 18, start-up).

``validate`` and ``odds`` load neither pandas nor matplotlib, nor the study or exact machinery;
``--help`` still lists every command and a mistyped one still gets its hint.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import weakref
from pathlib import Path

import click
import pytest

import simulator.cli
from simulator.cli.app import COMMANDS
from tests.support import REPO, TINY, harmonies_sim

HEAVY = ("pandas", "matplotlib", "numpy", "simulator.studies.api", "simulator.exact", "dask")
"""What a quick command must not load (``simulator.studies`` itself is light: its names load
their modules on first use)."""

WRAPPER = (
    "import atexit, json, runpy, sys; "
    "atexit.register(lambda: print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)),"
    " file=sys.stderr)); "
    "sys.argv = ['simulator', *{args!r}]; "
    "runpy.run_module('simulator', run_name='__main__')"
)
"""``python -m simulator ARGS`` that prints, at exit, which of the heavy modules it loaded."""


def loaded_by(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run the command in a fresh interpreter; its result and the heavy modules it loaded."""
    code = WRAPPER.format(heavy=HEAVY, args=list(args))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    return done, json.loads(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "tiny.toml"),
        ("validate", "tiny.toml", "--show"),
        ("validate", "tiny.toml", "--lang", "fr"),
        ("odds",),
        ("odds", "--open-roll", "--json"),
    ],
    ids=" ".join,
)
def test_quick_commands_load_neither_pandas_nor_matplotlib(tmp_path, args):
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    done, loaded = loaded_by(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the command printed nothing"
    assert loaded == [], f"{' '.join(args)} loaded {loaded}"


def test_the_wrapper_sees_what_a_study_command_loads(tmp_path):
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    done, loaded = loaded_by("run", "tiny.toml", "--trials", "5", "--workers", "1",
                             "--no-figures", "--out", "R", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "pandas" in loaded, loaded  # the check above can fail


ANSWERED = (
    "import json, runpy, sys; import click; echo = click.echo; seen = []\n"
    "def first(*a, **k):\n"
    "    if not seen:\n"
    "        seen.append(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))\n"
    "        print(json.dumps(seen[0]), file=sys.stderr)\n"
    "    echo(*a, **k)\n"
    "click.echo = first\n"
    "sys.argv = ['simulator', *{args!r}]; "
    "runpy.run_module('simulator', run_name='__main__')"
)
"""``python -m simulator ARGS`` that tells, at its first printed line, which of pandas and
matplotlib it had loaded by then."""


@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_a_small_run_prints_its_answer_before_loading_pandas(tmp_path, as_json):
    """Issue 33, the answer first: the summary comes from the tally, and pandas (about half
    a second to import) waits for the files; the figures and pages follow as before."""
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    args = ["run", "tiny.toml", "--trials", "50", "--workers", "1", "--out", "R"]
    code = ANSWERED.format(args=[*args, *(["--json"] if as_json else [])])
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[0]) == [], done.stderr
    for name in ("summary.json", "summary.csv", "trials.parquet", "fate.png", "report.html"):
        assert (tmp_path / "R" / name).is_file(), name  # and everything is written after
    if as_json:
        assert json.loads(done.stdout)["trials"] == 50


def test_help_lists_every_command():
    done = harmonies_sim("--help", cwd=REPO)
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("Commands:", 1)[1].split()
    for name in COMMANDS:
        assert name in listed, (name, done.stdout)


def test_a_mistyped_command_gets_the_nearest_as_a_hint():
    done = harmonies_sim("valdate", "x.toml", cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.startswith("error: No such command 'valdate'."), done.stderr
    assert "validate" in done.stderr, done.stderr


def test_every_module_with_a_command_is_named_in_commands():
    found = {}
    for info in pkgutil.iter_modules(simulator.cli.__path__):
        command = getattr(importlib.import_module(f"simulator.cli.{info.name}"), "COMMAND", None)
        if isinstance(command, click.Command):
            found[info.name] = command.name
    assert found == {name: name for name in COMMANDS}


@pytest.mark.compiled  # runs a command with HARMONIES_NO_JIT=0: waits for numba after an edit
def test_a_small_run_does_not_load_numba_and_gives_the_compiled_numbers(tmp_path):
    # up to PLAIN_KERNEL_TRIALS the kernel runs as plain Python (no numba to load); the
    # numbers are those of the compiled kernel, which HARMONIES_NO_JIT=0 asks for
    from simulator.startup import PLAIN_KERNEL_TRIALS

    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    args = ["run", "tiny.toml", "--trials", str(PLAIN_KERNEL_TRIALS), "--workers", "1",
            "--no-figures", "--json"]  # fmt: skip
    code = WRAPPER.format(heavy=("numba",), args=[*args, "--out", "plain"])
    plain = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stderr.strip().splitlines()[-1]) == []
    # (a kernel changed since `make venv` compiles here first: minutes on a loaded machine)
    compiled = harmonies_sim(*args, "--out", "compiled", cwd=tmp_path, timeout=1200,
                             env={**os.environ, "HARMONIES_NO_JIT": "0"})  # fmt: skip
    assert compiled.returncode == 0, compiled.stderr
    assert json.loads(plain.stdout) == json.loads(compiled.stdout)


@pytest.mark.compiled  # runs a command with HARMONIES_NO_JIT=0: waits for numba after an edit
def test_trace_of_one_trial_does_not_load_numba_and_tells_the_compiled_story(tmp_path):
    # one trial told: the kernel as plain Python, the very lines of the compiled kernel
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    args = ["trace", "tiny.toml", "--trial", "7", "--seed", "3"]
    code = WRAPPER.format(heavy=("numba",), args=args)
    plain = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stderr.strip().splitlines()[-1]) == []
    compiled = harmonies_sim(*args, cwd=tmp_path, timeout=1200,
                             env={**os.environ, "HARMONIES_NO_JIT": "0"})  # fmt: skip
    assert compiled.returncode == 0, compiled.stderr
    assert plain.stdout == compiled.stdout and plain.stdout.count("\n") > 3


def test_the_plain_kernel_choice_keeps_the_environment_and_a_choice_made_there(monkeypatch):
    import simulator.startup as startup
    from simulator.kernel import jit

    assert startup.NO_JIT_VARIABLE == jit.NO_JIT_VARIABLE
    monkeypatch.delitem(sys.modules, startup.KERNEL_JIT)  # as if not imported yet
    monkeypatch.setenv(startup.NO_JIT_VARIABLE, "0")
    assert not startup.plain_kernel_for(1)  # the environment's choice stands
    assert startup.KERNEL_JIT not in sys.modules
    monkeypatch.delenv(startup.NO_JIT_VARIABLE)
    assert not startup.plain_kernel_for(startup.PLAIN_KERNEL_TRIALS + 1)
    assert startup.KERNEL_JIT not in sys.modules  # a large study: nothing decided here


# --- Ctrl-C once the command runs: raised only where it can unwind it -----------------------


def test_ctrl_c_is_unsafe_inside_an_import_code_run_from_a_string_and_a_del(tmp_path, monkeypatch):
    """Three places where Python's own KeyboardInterrupt is lost or does harm (a module lock
    never given back, an exception dropped, a status replaced by SIGINT): the handler waits.
    Only the frames above the command's count (a test runner may run it from a string)."""
    from simulator import startup

    command = sys._getframe()
    monkeypatch.setattr(startup, "probe", lambda: startup.unsafe(sys._getframe(1), command),
                        raising=False)  # fmt: skip
    seen: dict[str, bool] = {}
    (tmp_path / "probe_module.py").write_text(
        "from simulator import startup\nSEEN = startup.probe()\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "probe_module", raising=False)
    seen["import"] = importlib.import_module("probe_module").SEEN
    exec("seen['string'] = startup.probe()", {"startup": startup, "seen": seen})

    class Dropped:
        def __del__(self):
            seen["del"] = startup.probe()

    Dropped()

    def plain() -> None:
        seen["plain"] = startup.probe()

    plain()

    class Key:  # a WeakKeyDictionary forgets a key in weakref.py's callback
        pass

    forgetting: weakref.WeakKeyDictionary[Key, int] = weakref.WeakKeyDictionary()
    key = Key()
    forgetting[key] = 1
    weakref.finalize(key, lambda: seen.setdefault("weakref", startup.probe()))
    forgetting_probe = weakref.ref(key, lambda _: seen.setdefault("callback", startup.probe()))
    del key
    assert forgetting_probe() is None
    assert seen == {
        "import": True,
        "string": True,
        "del": True,
        "plain": False,
        "weakref": True,
        "callback": False,
    }


def test_ctrl_c_inside_code_run_from_a_string_is_raised_just_after_it():
    import signal
    import threading
    import time

    from simulator import startup

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled in the main thread only")
    previous = signal.signal(signal.SIGINT, startup._stop)
    ran: dict[str, bool] = {}
    try:
        startup.started()  # as the command's start hands Ctrl-C over: this test is the command
        assert signal.getsignal(signal.SIGINT) is startup.interrupt
        with pytest.raises(KeyboardInterrupt):
            exec(
                "import signal\nsignal.raise_signal(signal.SIGINT)\nran['to its end'] = True",
                {"ran": ran},
            )
            ran["after"] = True
            for _ in range(400):  # the handler tries again a few milliseconds later
                time.sleep(0.005)
        assert ran == {"to its end": True, "after": True}
        with pytest.raises(KeyboardInterrupt):  # anywhere else: at once, as Python does
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
        startup._command.clear()


def test_sigterm_inside_the_import_system_is_raised_just_after_it_not_lost():
    """SIGTERM was raised at any line: landing in a module lock's weakref callback of the
    import system, it was dropped ("Exception ignored") with the import lock held, and `run`
    hung for ever (or went on to exit 0). Like Ctrl-C, it now waits for a safe line."""
    import signal
    import threading
    import time

    from simulator import startup
    from simulator.cli.common import Terminated
    from simulator.cli.options import sigterm_as_interrupt

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled in the main thread only")
    ran: dict[str, bool] = {}
    inside_import = compile(
        "import signal\nsignal.raise_signal(signal.SIGTERM)\nran['to its end'] = True",
        "<frozen importlib._bootstrap>",
        "exec",
    )
    before = signal.getsignal(signal.SIGTERM)
    try:
        # this test is the command, as started() records it in the command line's process
        # (whatever ran the test above it: pytest-xdist runs its workers from a string)
        startup._command[:] = [sys._getframe()]
        with pytest.raises(Terminated), sigterm_as_interrupt():
            exec(inside_import, {"ran": ran})
            ran["after"] = True
            for _ in range(400):  # the handler tries again a few milliseconds later
                time.sleep(0.005)
        assert ran == {"to its end": True, "after": True}
        with pytest.raises(Terminated), sigterm_as_interrupt():  # elsewhere: at once
            signal.raise_signal(signal.SIGTERM)
    finally:
        startup._command.clear()
    assert signal.getsignal(signal.SIGTERM) is before
    ran.clear()  # not the command line's process: at once, as before (nothing known unsafe)
    with pytest.raises(Terminated), sigterm_as_interrupt():
        exec(inside_import, {"ran": ran})
    assert ran == {}


def test_holding_ctrl_c_puts_back_a_handler_python_did_not_install(monkeypatch):
    """signal.signal answers None for a handler an embedding program installed: the hold
    ends with the default handler then, not with a TypeError."""
    import signal

    from simulator.startup import sigint_held

    real = signal.signal
    calls: list[object] = []

    def answering_none(number, handler):
        calls.append(handler)
        real(number, handler if handler is not None else signal.SIG_DFL)
        return None if len(calls) == 1 else signal.default_int_handler

    monkeypatch.setattr(signal, "signal", answering_none)
    try:
        with sigint_held():
            pass
    finally:
        real(signal.SIGINT, signal.default_int_handler)
    assert calls[-1] is signal.SIG_DFL


def test_ctrl_c_before_the_preload_thread_starts_ends_without_a_traceback(monkeypatch):
    """Ctrl-C landing in ``preload`` after its end-of-process stop was registered but before
    its thread started: the stop joined a thread never started, and the process printed
    "Exception ignored in atexit callback ... cannot join thread before it is started" under
    its one line "interrupted" (CI, the Ctrl-C test's "importing" moment)."""
    import atexit
    import threading

    import simulator.startup as startup

    registered: list = []
    monkeypatch.setattr(atexit, "register", registered.append)

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", interrupted)
    with pytest.raises(KeyboardInterrupt):
        startup.preload(())
    (stop,) = registered
    stop()  # the end of the process: nothing to wait for, and nothing raised
