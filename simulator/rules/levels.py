"""Wound levels and tracks (T1, M1) as enums, not free strings."""

from __future__ import annotations

from enum import Enum, IntEnum


class Track(Enum):
    """The two tracks of wounds: physical (T1) and mental (M1)."""

    PHYSICAL = "physical"
    MENTAL = "mental"


class Level(IntEnum):
    """A wound level. Values 0-2 are physical, 3-5 mental; order is gravity within a track."""

    LIGHT = 0
    GRAVE = 1
    CRITICAL = 2
    SHOCK = 3
    TRAUMA = 4
    PSYCHOSIS = 5

    @property
    def track(self) -> Track:
        """The track this level belongs to."""
        return _TRACKS[self]

    is_physical: bool
    """Whether the level is on the physical track (light, grave, critical; T1)."""

    is_mental: bool
    """Whether the level is on the mental track (shock, trauma, psychosis; M1)."""

    @property
    def rank(self) -> int:
        """Gravity within the track: 0 (light, shock) to 2 (critical, psychosis)."""
        return int(self) % 3

    @property
    def label(self) -> str:
        """The name used in scenario files and tables (``"light"``...)."""
        return _LABELS[self]

    def top(self) -> Level:
        """The gravest level of the track (critical, psychosis): past it a blow is fatal."""
        return Level(int(self) - self.rank + 2)

    def higher(self) -> Level | None:
        """The next level up in the same track, or ``None`` past the top (fatal/incoherent)."""
        return None if self.rank == 2 else Level(self + 1)

    def lower(self) -> Level | None:
        """The next level down in the same track, or ``None`` below the lightest (healed)."""
        return None if self.rank == 0 else Level(self - 1)

    @classmethod
    def parse(cls, text: str) -> Level:
        """Read a level name as written in scenario files.

        Raises:
            ValueError: When ``text`` names no level.
        """
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown level {text!r}") from None


_TRACKS = (Track.PHYSICAL,) * 3 + (Track.MENTAL,) * 3
_LABELS = tuple(member.name.lower() for member in Level)

for _level in Level:  # plain attributes, not properties: the engine asks them very often
    _level.is_physical = _TRACKS[_level] is Track.PHYSICAL
    _level.is_mental = not _level.is_physical

PHYSICAL_LEVELS = (Level.LIGHT, Level.GRAVE, Level.CRITICAL)
MENTAL_LEVELS = (Level.SHOCK, Level.TRAUMA, Level.PSYCHOSIS)
LEVEL_NAMES = tuple(level.label for level in Level)
