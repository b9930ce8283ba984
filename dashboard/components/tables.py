"""Table helpers shared by the pages."""

from __future__ import annotations

import pandas as pd


def rubro_last(df: pd.DataFrame) -> pd.DataFrame:
    """Move the long 'Rubro' column to the end so the numbers stay on screen."""
    if "Rubro" not in df.columns:
        return df
    return df[[c for c in df.columns if c != "Rubro"] + ["Rubro"]]
