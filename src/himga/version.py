"""himga's version (``himga.__version__``), in a module of its own so that modules inside the package can
read it without importing the package's ``__init__`` (which registers the builders)."""

__version__ = "0.1.0"
