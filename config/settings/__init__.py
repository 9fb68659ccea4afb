"""Settings package: ``base`` (everything, from the environment), ``test``, ``production``."""
