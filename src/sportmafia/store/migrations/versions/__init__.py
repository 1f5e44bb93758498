"""One file per schema revision. Never edit a released revision: add a new one."""
