"""Started by `sharpbits run` in the user's program (this folder is put first on PYTHONPATH): loads the runtime
agent from its file (the user's interpreter need not have sharpbits installed), then runs the `sitecustomize`
this one shadows, if there is one, so the environment's own start-up code still runs."""


def _sharpbits_start():
    import importlib.util
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    agent_file = os.path.join(os.path.dirname(here), "agent.py")
    if os.environ.get("SHARPBITS_RUNTIME_OPTIONS"):
        try:
            spec = importlib.util.spec_from_file_location("_sharpbits_runtime_agent", agent_file)
            if spec is not None and spec.loader is not None:
                module = importlib.util.module_from_spec(spec)
                sys.modules["_sharpbits_runtime_agent"] = module
                spec.loader.exec_module(module)
                module.install_from_environment()
        except Exception as exc:  # never stop the user's program: say it on stderr once, and run it
            sys.stderr.write(f"sharpbits run: the runtime agent did not start: {type(exc).__name__}: {exc}\n")
    # the sitecustomize this file shadows
    this = sys.modules.pop("sitecustomize", None)
    saved = sys.path[:]
    try:
        sys.path[:] = [p for p in sys.path if os.path.realpath(p or ".") != os.path.realpath(here)]
        try:
            import sitecustomize  # noqa: F401
        except ImportError:
            if this is not None:
                sys.modules["sitecustomize"] = this
    finally:
        sys.path[:] = saved


_sharpbits_start()
