"""canon's version, written once: the build reads it, and so does ``canon.__version__``."""

__all__ = ["__version__"]

__version__ = "0.1.0"
