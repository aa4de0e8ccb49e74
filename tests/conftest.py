"""pytest configuration: hypothesis profiles, registered once here.

* ``ci`` — hypothesis's built-in CI profile (derandomized, no deadline, failure blobs printed)
  extended with more examples; loaded when the ``CI`` environment variable is set;
* ``thorough`` — for long runs: ``pytest --hypothesis-profile=thorough``;
* ``local`` otherwise: hypothesis's defaults without the per-example deadline (exact arithmetic
  on a loaded machine makes timing meaningless).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", parent=settings.get_profile("ci"), max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("local", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")
