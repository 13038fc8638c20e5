"""dp_accounting.dp_event's layout: the event classes of exactdp.dp_events (re-exported; floats
are taken at their exact binary value, see exactdp.dp_accounting)."""

from ..dp_events import *  # noqa: F401,F403 (the one implementation)
from ..dp_events import __all__  # noqa: F401
