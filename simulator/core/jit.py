"""``@compiled``: how every engine function is compiled (numba's ``njit``, cached on disk).

numba compiles a function called from compiled code once for each literal value of a constant
argument: ``record(log, TURN)`` and ``record(log, ROLL)`` would be two compiles, and a flag
passed as a constant compiles the callee (and what it calls) once per value. The rules pass
log codes, reasons and purposes as constants everywhere, so a ``compiled`` function is typed on
its arguments' types alone: one compile for each distinct argument type. A default argument is
another specialisation (numba types an omitted argument by its default): a compiled function
takes none, unless it is compiled into its callers (``inline="always"``), which
``tests/test_compile.py`` checks.
"""

from numba import types
from numba.core import config
from numba.core.registry import CPUDispatcher


class TypedDispatcher(CPUDispatcher):
    """numba's dispatcher, asked for a compile by compiled callers with literal types made
    plain (``Literal[int](3)`` is ``int64``)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def compiled(function=None, *, inline: str = "never", nogil: bool = False):
    """``@compiled`` or ``@compiled(inline="always")``: an ``njit(cache=True)`` function typed on
    its arguments' types only. Under ``NUMBA_DISABLE_JIT=1`` the plain Python function."""
    def decorate(fn):
        if config.DISABLE_JIT:
            return fn
        options = {"nopython": True, "boundscheck": None}
        if inline != "never":
            options["inline"] = inline
        if nogil:
            options["nogil"] = True
        dispatcher = TypedDispatcher(py_func=fn, locals={}, targetoptions=options)
        dispatcher.enable_caching()
        return dispatcher
    return decorate if function is None else decorate(function)


def argument_types(signature: tuple) -> tuple:
    """A compiled signature as the types its arguments really have: literals made plain, an
    omitted argument typed as its default."""
    from numba import typeof

    def plain(t):
        if isinstance(t, types.Omitted):
            return typeof(t.value)
        return types.unliteral(t)
    return tuple(plain(t) for t in signature)


def respecialised(dispatchers) -> dict[str, int]:
    """Of ``{name: dispatcher}``, those compiled more often than their distinct argument types
    require: ``{name: compiles}``."""
    found = {}
    for name, dispatcher in dispatchers.items():
        signatures = list(dispatcher.overloads)
        if len({argument_types(s) for s in signatures}) < len(signatures):
            found[name] = len(signatures)
    return found


def project_dispatchers() -> dict:
    """Every compiled function of the engine loaded in this process, by qualified name."""
    import sys
    found = {}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith(("simulator.", "strategies.")):
            continue
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.__module__ == module_name:
                found[f"{module_name}.{name}"] = value
    return found
