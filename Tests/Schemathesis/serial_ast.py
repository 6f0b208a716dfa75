"""Serializes ast.parse across threads in the schemathesis venv.

CPython 3.11 (Debian bookworm's python3) keeps the AST converter's recursion depth in state
shared by all threads (python/cpython gh-106905, fixed in later releases), so two workers that
parse source at the same moment (Hypothesis does, to describe a lambda) fail with
"AST constructor recursion depth mismatch". run.sh installs this module with a .pth file so that
every ast.parse in the venv holds one lock.
"""
import ast
import threading

_lock = threading.Lock()
_parse = ast.parse


def _serial_parse(*args, **kwargs):
    with _lock:
        return _parse(*args, **kwargs)


ast.parse = _serial_parse
