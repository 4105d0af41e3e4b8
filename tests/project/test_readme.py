"""Every command the README shows runs, with small trial counts, and does what it says.

The README's ```console blocks are sessions: a line starting with ``$ `` is a command, the
lines after it an excerpt of what it prints (``...`` stands for lines left out). Each
``harmonies-sim`` command is run through this environment, in a scratch folder holding a
copy of ``scenarios/``, with ``--trials`` capped at :data:`TRIALS` and one worker; it must
exit with status 0 and write what it announces. Commands that involve no sampling
(``trace``, ``validate``, ``odds``) must print the excerpt as shown. ``make`` lines are not
run (they would rebuild the environment); their targets must exist in the Makefile.
```python blocks run as scripts, trial counts capped the same way.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
TRIALS = 200
"""The most trials a README command runs with here."""

STUDIES = {"run", "sweep", "compare", "study", "balance", "sensitivity", "calibrate"}
"""Commands that run Monte Carlo studies."""

DETERMINISTIC = {"trace", "validate", "odds"}
"""Commands whose output does not depend on the number of trials: excerpts are checked."""

_LABEL = re.compile(r"[^\d(\"—]*")
"""The words at the start of an output line, before its first number."""

_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass
class Command:
    """One ``$`` line of a console block and the excerpt of its output shown under it."""

    text: str
    excerpt: list[str] = field(default_factory=list)

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.text)


def blocks(language: str) -> list[str]:
    """The bodies of the README's fenced blocks of one language."""
    text = README.read_text(encoding="utf-8")
    return [body for lang, body in _BLOCK.findall(text) if lang == language]


def console_commands() -> list[Command]:
    """Every ``$`` command of the console blocks, in order, with its excerpt."""
    commands: list[Command] = []
    for body in blocks("console"):
        current: Command | None = None
        continued = False
        for line in body.splitlines():
            if continued and current is not None:
                current.text = current.text[:-1].rstrip() + " " + line.strip()
            elif line.startswith("$ "):
                current = Command(line[2:].strip())
                commands.append(current)
            elif current is not None:
                current.excerpt.append(line)
            continued = line.rstrip().endswith("\\")
    return commands


COMMANDS = console_commands()


def small(argv: list[str]) -> list[str]:
    """Cap ``--trials`` at :data:`TRIALS`, and run studies on one worker (no process pool).

    Results do not depend on the number of workers (CONTRACT.md), only the time does.
    """
    argv = list(argv)
    for i, arg in enumerate(argv[:-1]):
        if arg == "--trials":
            argv[i + 1] = str(min(int(argv[i + 1]), TRIALS))
    if argv and argv[0] in STUDIES and "--workers" not in argv:
        argv += ["--workers", "1"]
    return argv


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv[:-1] else None


def harmonies_sim() -> list[str]:
    """The command of this environment (the venv's console script, or ``-m simulator``)."""
    script = Path(sys.executable).parent / "harmonies-sim"
    return [str(script)] if script.exists() else [sys.executable, "-m", "simulator"]


def environment() -> dict[str, str]:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def run_in(folder: Path, argv: list[str], timeout: int) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in ``folder`` as the README's reader would, its output captured."""
    return subprocess.run(
        argv,
        cwd=folder,
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def assert_excerpt_printed(command: Command, stdout: str) -> None:
    """Every line of the command's excerpt (but ``...``) is a line it printed."""
    printed = [line.rstrip() for line in stdout.splitlines()]
    for line in command.excerpt:
        if line.strip() and line.strip() != "...":
            assert line.rstrip() in printed, f"README excerpt not printed: {line!r}"


def make_targets() -> set[str]:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*:", text, re.MULTILINE))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch folder with a copy of the scenarios, where the README's commands run."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "scenarios", root / "scenarios")
    shutil.copytree(REPO / "calibrations", root / "calibrations")  # they name ../scenarios/
    return root


@pytest.fixture(scope="module")
def sessions(workdir: Path) -> list[subprocess.CompletedProcess[str] | None]:
    """Run every console command in order (later ones may use what earlier ones made)."""
    results: list[subprocess.CompletedProcess[str] | None] = []
    for command in COMMANDS:
        argv = command.argv
        if argv[0] == "make":
            results.append(None)
        elif argv[0] == "harmonies-sim":
            results.append(run_in(workdir, harmonies_sim() + small(argv[1:]), timeout=300))
        elif argv[0] == "cp" and len(argv) == 3:
            shutil.copy(workdir / argv[1], workdir / argv[2])
            results.append(None)
        else:
            pytest.fail(f"README shows a command this test cannot run: {command.text!r}")
    return results


def test_the_readme_shows_the_tour():
    shown = {c.argv[1] for c in COMMANDS if c.argv[0] == "harmonies-sim"}
    assert {"trace", "run", "sweep", "compare", "validate"} <= shown
    assert {"run", "test"} <= {c.argv[1] for c in COMMANDS if c.argv[0] == "make"}


@pytest.mark.slow  # every command of the tour, each in a fresh interpreter: minutes
@pytest.mark.parametrize("index", range(len(COMMANDS)), ids=[c.text[:60] for c in COMMANDS])
@pytest.mark.timeout(900)
def test_readme_command(index: int, sessions, workdir: Path):
    command = COMMANDS[index]
    argv = command.argv
    if argv[0] == "make":
        for target in argv[1:]:
            assert target in make_targets(), f"the README shows `make {target}`"
        return
    if argv[0] == "cp":
        assert (workdir / argv[2]).is_file()
        return
    done = sessions[index]
    assert done is not None
    assert done.returncode == 0, f"{command.text}\n{done.stdout}\n{done.stderr}"
    out = option(argv, "--out")
    if out is not None:
        written = sorted(p.name for p in (workdir / out).iterdir())
        assert any(name.endswith(".csv") for name in written), written
        assert any(name.endswith(".png") for name in written), written
        announced = re.search(r"Results in (\S+)", command_excerpt(command))
        if announced:
            assert announced.group(1) in done.stdout
    if argv[1] in DETERMINISTIC:
        assert_excerpt_printed(command, done.stdout)
    else:  # the numbers change with the trials; the words must not
        printed = " ".join(done.stdout.split())
        for line in command.excerpt:
            label = " ".join(_LABEL.match(line).group(0).split())
            if len(label) > 1 and label != "...":  # ``...``: lines left out
                assert label in printed, f"README excerpt: {label!r} not printed"


def command_excerpt(command: Command) -> str:
    return "\n".join(command.excerpt)


FULL = [i for i, c in enumerate(COMMANDS) if c.argv[0] == "harmonies-sim" and c.argv[1] in STUDIES]
"""The tour's studies, run again below at their own trial counts."""


@pytest.mark.slow  # the tour's studies at the README's own trial counts: a few minutes
@pytest.mark.parametrize("index", FULL, ids=[COMMANDS[i].text[:60] for i in FULL])
@pytest.mark.timeout(900)
def test_readme_study_prints_its_numbers(index: int, tmp_path: Path):
    """At the README's own trials and seed, a study prints its excerpt line for line.

    :func:`test_readme_command` runs the studies small, so it can check only their words;
    the numbers, their number formats (the French narrow space, the digits of a small share)
    and their columns drift unseen unless the command runs as the README shows it.
    """
    shutil.copytree(REPO / "scenarios", tmp_path / "scenarios")
    shutil.copytree(REPO / "calibrations", tmp_path / "calibrations")
    for earlier in COMMANDS[:index]:  # the files the tour copies before this command
        if earlier.argv[0] == "cp" and len(earlier.argv) == 3:
            shutil.copy(tmp_path / earlier.argv[1], tmp_path / earlier.argv[2])
    command = COMMANDS[index]
    done = run_in(tmp_path, [*harmonies_sim(), *command.argv[1:], "--no-figures"], timeout=600)
    assert done.returncode == 0, f"{command.text}\n{done.stdout}\n{done.stderr}"
    assert_excerpt_printed(command, done.stdout)


@pytest.mark.timeout(900)
def test_readme_python(workdir: Path):
    for i, code in enumerate(blocks("python")):
        script = workdir / f"readme_{i}.py"
        script.write_text(
            re.sub(r"trials=\d+", f"trials={TRIALS}, workers=1", code), encoding="utf-8"
        )
        done = run_in(workdir, [sys.executable, script.name], timeout=300)
        assert done.returncode == 0, f"{code}\n{done.stdout}\n{done.stderr}"


@pytest.mark.slow  # the main study of `make run`, on every scenario
@pytest.mark.timeout(900)
def test_make_run_writes_the_figures_the_readme_shows(tmp_path: Path):
    """`make run` is `study scenarios ... --out results`: run it small, find the images."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^run:.*\n\t(.+)$", makefile, re.MULTILINE)
    assert recipe and "study scenarios" in recipe.group(1) and "--out results" in recipe.group(1)
    shutil.copytree(REPO / "scenarios", tmp_path / "scenarios")
    done = subprocess.run(
        [
            *harmonies_sim(),
            "study",
            "scenarios",
            "--trials",
            "100",
            "--workers",
            "1",
            "--out",
            "results",
            "--quiet",
        ],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    text = README.read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\((results/[^)]+)\)", text)
    assert images, "the README should show the main figure of results/"
    for image in images:
        assert (tmp_path / image).is_file(), f"make run does not write {image}"


def test_readme_links_exist():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if target.startswith(("http://", "https://", "results/")):
            continue
        assert (REPO / target).exists(), f"README links to a missing {target}"
