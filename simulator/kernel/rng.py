"""Each trial's random stream, inside the kernel: SplitMix64 keyed by (seed, trial).

The study's seed goes through numpy's ``SeedSequence`` once (:func:`stream_key`); trial ``i``'s
stream then starts from a state mixed from that key and ``i`` (:func:`trial_state`), and each
draw advances it by the golden-ratio increment and mixes the result (SplitMix64, which passes
BigCrush). A trial's numbers so depend only on the seed and its index: not on workers,
backend, chunk size or whether the code is compiled.
"""

from __future__ import annotations

import numpy as np

from simulator.kernel.jit import internal, spliced

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
TRIAL_SALT = np.uint64(0xD1B54A32D192ED03)
SHIFT30, SHIFT27, SHIFT31, SHIFT11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
UNIT = 2.0**-53
STREAM_SIZE = 3
"""The stream's work array ``rs``: its state ``rs[0]``, then a position kept for each test
clock (:data:`~simulator.kernel.clocks.KEPT_SURVIVAL`, :data:`~simulator.kernel.clocks.
KEPT_FIRST_AID`): where a run's decisive draw was taken (:func:`taken`), mixed only if a
trace reads it (:func:`uniform_at`)."""


def stream_key(seed: int) -> np.uint64:
    """The key of a study's streams: the first 64-bit word of ``SeedSequence(seed)``."""
    return np.uint64(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


@spliced
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijective scrambling of 64 bits."""
    z = (z ^ (z >> SHIFT30)) * MIX1
    z = (z ^ (z >> SHIFT27)) * MIX2
    return z ^ (z >> SHIFT31)


@internal
def trial_state(key: np.uint64, trial: int) -> np.uint64:
    """The starting state of trial ``trial``'s stream."""
    return mix64(key ^ mix64(np.uint64(trial) * TRIAL_SALT + GOLDEN))


@spliced
def taken(rs: np.ndarray) -> None:
    """Take the next draw of the stream without mixing it: its value is ``uniform_at(rs[0])``.

    The state only advances (SplitMix64 is counter-based): a draw that may never be read is
    paid for only where it is, at the position kept, as the same number :func:`uniform` gives.
    """
    rs[0] = rs[0] + GOLDEN


@spliced
def uniform_at(z: np.uint64) -> float:
    """The draw of the stream at position ``z`` (what :func:`uniform` returns there)."""
    return float(mix64(z) >> SHIFT11) * UNIT


@spliced
def uniform(rs: np.ndarray) -> float:
    """The next draw of the stream held in ``rs[0]``, uniform on [0, 1) (53 bits)."""
    rs[0] = rs[0] + GOLDEN
    return float(mix64(rs[0]) >> SHIFT11) * UNIT
