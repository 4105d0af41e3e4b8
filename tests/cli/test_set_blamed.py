"""A mistake that ``--set`` options brought names the ``--set`` that brought it.

Two ``--set`` that build one table (``first_aid.level=3`` and ``first_aid.start=oops`` on a
file without ``[first_aid]``) each keep their own mistakes: the bad value names the one that
carried it, a key missing from the new table names the one that created the table.
"""

from __future__ import annotations

from click.testing import CliRunner

from simulator.cli.app import main

NO_FIRST_AID = "scenarios/lone_traveller.toml"  # a file without [first_aid]
FIRST_AID = "scenarios/geraldine.toml"  # a file with one


def told(*args: str) -> dict[str, str]:
    """Each ``error:`` line of a refused ``validate``, by the key it names: the source it names."""
    result = CliRunner().invoke(main, ["validate", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert all(line.startswith("error: ") for line in lines), result.stderr
    found = {}
    for line in lines:
        source, key, _ = line.removeprefix("error: ").split(": ", 2)
        found[key] = source
    return found


def test_a_bad_value_names_the_set_that_carried_it_and_a_missing_key_the_creator():
    for first, second in [("first_aid.level=3", "first_aid.start=oops"),
                          ("first_aid.start=oops", "first_aid.level=3")]:  # fmt: skip
        found = told(NO_FIRST_AID, "--set", first, "--set", second)
        assert found["first_aid.start"] == f"--set first_aid.start=oops (on {NO_FIRST_AID})"
        # the table came from the first --set: the key it lacks is that one's to give
        assert found["first_aid.interval"] == f"--set {first} (on {NO_FIRST_AID})"


def test_a_whole_table_set_is_blamed_for_what_it_left_out():
    found = told(NO_FIRST_AID, "--set", "first_aid={level=3}", "--set", "first_aid.start=5min")
    assert found == {"first_aid.interval": f"--set first_aid={{level=3}} (on {NO_FIRST_AID})"}
    found = told(FIRST_AID, "--set", "first_aid={level=3}", "--set", "first_aid.start=5min")
    assert found == {"first_aid.interval": f"--set first_aid={{level=3}} (on {FIRST_AID})"}


def test_the_set_that_creates_a_table_with_an_unknown_key_is_named():
    found = told(FIRST_AID, "--set", "first_aid.foo.a=1", "--set", "first_aid.foo.b=2")
    assert found == {"first_aid.foo": f"--set first_aid.foo.a=1 (on {FIRST_AID})"}


def test_an_index_written_with_a_leading_zero_is_the_sets_not_the_files():
    found = told(FIRST_AID, "--set", "injuries.01.at=oops")
    assert found == {"injuries[1].at": f"--set injuries.01.at=oops (on {FIRST_AID})"}


def test_compare_blames_the_set_before_its_side():
    result = CliRunner().invoke(main, ["compare", NO_FIRST_AID, FIRST_AID, "--exact",
                                       "--set", "first_aid.level=3",
                                       "--set-a", "first_aid.start=oops"])  # fmt: skip
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert any(line.startswith("error: --set-a first_aid.start=oops (on ") and
               ": first_aid.start: got 'oops'" in line for line in lines), lines  # fmt: skip
    missing = [line for line in lines if ": first_aid.interval: missing" in line]
    assert missing and all(line.startswith("error: --set first_aid.level=3 (on ")
                           for line in missing), lines  # fmt: skip
