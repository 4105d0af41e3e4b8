"""Small made-up scenarios of the basic ruleset and of mental wounds (issue 29).

Each mixes what the kernel must run beside the arpeges physical track: mental wounds with
physical ones (M1-M3: penalties present half the time, a healer or none, an incoherent end
within reach), the basic ruleset with mental wounds (B1-B6: margins of -10 and less, fatal and
incoherent ends), and injuries and activities listed out of time order (the reader orders
them, file order at equal times). Their horizons are short, so that the event-by-event
reference runs a few thousand of them in seconds.
"""

from __future__ import annotations

import tomllib
from functools import cache

from simulator.scenario.model import Scenario
from simulator.scenario.reading import scenario_from_mapping

MADE_UP: dict[str, str] = {
    "mental and physical, out of order": """
name = "mental and physical together"
horizon = "6d"
[patient]
cp_rs = 20
rs_it = 12
[[injuries]]
at = "2h"
level = "grave"
[[injuries]]
at = "0s"
level = "shock"
[[injuries]]
at = "0s"
level = "light"
[[injuries]]
at = "1d"
level = "trauma"
count = 2
[[injuries]]
at = "3d"
level = "trauma"
[[injuries]]
at = "3d"
level = "trauma"
[[activities]]
at = "2d"
modifier = -2
[[activities]]
at = "12h"
modifier = 0
[first_aid]
level = 12
start = "5min"
interval = "10min"
max_attempts = 6
self = true
[watch]
neglect_probability = 0.1
[healing]
level = 1
[rules]
trigger_probability = 0.5
self_aid_pain_factor = 1
""",
    "basic with mental wounds": """
name = "basic with mental wounds (B6)"
ruleset = "basic"
horizon = "30d"
[patient]
cp_rs = 6
rs_it = 4
[[injuries]]
at = "0s"
level = "light"
count = 2
[[injuries]]
at = "0s"
level = "grave"
[[injuries]]
at = "4d"
level = "grave"
[[injuries]]
at = "2d"
level = "psychosis"
[[injuries]]
at = "0s"
level = "shock"
[[injuries]]
at = "0s"
level = "trauma"
[healing]
modifier = -2
[rules]
trigger_probability = 0.5
""",
    "mental wounds without a healer": """
name = "mental wounds and no healer"
horizon = "4d"
[patient]
cp_rs = 8
rs_it = 4
[[injuries]]
at = "0s"
level = "shock"
count = 2
[[injuries]]
at = "0s"
level = "trauma"
[[injuries]]
at = "1h"
level = "light"
[first_aid]
level = 2
start = "10min"
interval = "10min"
[rules]
pain_floor_craziness = false
""",
    "critical and trauma, penalties half the time": """
name = "a critical wound and a trauma"
horizon = "2d"
[patient]
cp_rs = 22
rs_it = 12
[[injuries]]
at = "0s"
level = "critical"
[[injuries]]
at = "0s"
level = "trauma"
[first_aid]
level = 8
start = "1min"
interval = "1min"
[healing]
level = 2
[rules]
trigger_probability = 0.5
""",
}
"""Each made-up scenario's TOML text, by name."""


@cache
def made_up(name: str) -> Scenario:
    """The made-up scenario ``name`` of :data:`MADE_UP`, read as the reader reads a file."""
    return scenario_from_mapping(tomllib.loads(MADE_UP[name]), name)
