"""The compiled kernel's columns as the ``trials`` frame (the same columns and dtypes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simulator.engine.record import RECORD_FIELDS
from simulator.studies.frames import CAUSE_DTYPE, OUTCOME_DTYPE, column_dtypes


def columns_to_frame(columns: dict[str, np.ndarray], start: int, seed: int) -> pd.DataFrame:
    """The ``trials`` frame of consecutive trials from the kernel's columns.

    ``outcome`` comes as indices into :data:`~simulator.rules.outcome.OUTCOMES` (the
    categories' order), ``cause`` as indices into :class:`~simulator.rules.cause.Cause`,
    whose first member (none) is no category: missing.
    """
    n = len(columns["outcome"])
    data: dict[str, Any] = {
        "trial": np.arange(start, start + n, dtype=np.int64),
        "seed": np.full(n, seed, dtype=np.int64),
    }
    dtypes = column_dtypes()
    for name in RECORD_FIELDS:
        values = columns[name]
        if name == "outcome":
            data[name] = pd.Categorical.from_codes(values.astype(np.int8), dtype=OUTCOME_DTYPE)
        elif name == "cause":
            data[name] = pd.Categorical.from_codes(values.astype(np.int8) - 1, dtype=CAUSE_DTYPE)
        else:
            data[name] = values.astype(dtypes[name])
    return pd.DataFrame(data)
