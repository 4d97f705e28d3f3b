"""What runs at a site: the Secretary, its configuration, and the functions an endpoint serves."""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

try:
    __version__ = _version("secretary-executor")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
