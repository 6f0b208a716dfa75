"""Serializes every conversion between Python AST objects and the compiler's across threads in
the schemathesis venv.

CPython 3.11 (Debian bookworm's python3) keeps the AST converter's recursion depth in state
shared by all threads (python/cpython gh-106905, fixed in later releases), so two workers that
convert at the same moment fail with "AST constructor recursion depth mismatch". Both ways
convert: parsing to an AST (ast.parse, compile with PyCF_ONLY_AST; Hypothesis does it to describe
a lambda) and compiling an AST object (compile(tree, ...)). run.sh installs this module with a
.pth file so that every such compile in the venv holds one (reentrant) lock.
"""
import ast
import builtins
import threading

_lock = threading.RLock()
_compile = builtins.compile


def _serial_compile(source, *args, **kwargs):
    flags = kwargs.get("flags", args[2] if len(args) > 2 else 0)
    if isinstance(source, ast.AST) or flags & ast.PyCF_ONLY_AST:
        with _lock:
            return _compile(source, *args, **kwargs)
    return _compile(source, *args, **kwargs)


builtins.compile = _serial_compile
