"""One adapter per transcript format; each turns records into :class:`Event` objects."""
