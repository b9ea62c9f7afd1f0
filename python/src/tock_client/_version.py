"""The distribution's version, read by hatchling and by ``tock_client.__version__``."""

__version__ = "0.1.0"
