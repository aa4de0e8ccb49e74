"""Provenance recorded in result files and certificates (posreal.runtime.provenance)."""

from __future__ import annotations

from datetime import datetime, timedelta


# Exists because a mutant survived: the provenance timestamp could be in local time.
def test_provenance_timestamp_is_utc():
    """The timestamp carries the UTC offset (+00:00) and is whole seconds."""
    from posreal.runtime.provenance import timestamp

    stamp = timestamp()
    assert stamp.endswith("+00:00")
    when = datetime.fromisoformat(stamp)
    assert when.utcoffset() == timedelta(0) and when.microsecond == 0
