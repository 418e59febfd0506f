"""Lets the examples run from a checkout before `pip install ./clients/python`: when headtrack_client is not
installed, the copy in this repository's clients/python is used."""
import os
import sys

try:
    import headtrack_client  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
