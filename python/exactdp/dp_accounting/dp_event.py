"""dp_accounting.dp_event's layout: the event classes of exactdp.dp_events (re-exported; floats
are taken at their exact binary value, see exactdp.dp_accounting), one for every law of the
registry with an accounting event (``event_class(law)``)."""

from ..dp_events import *  # noqa: F401,F403 (the names of dp_events.__all__)
from ..dp_events import __all__ as __all__
