"""Importable placeholders for optional packages PipelineDP imports but the comparison never uses.

PipelineDP's package __init__ (at the commit measured, ec6e56e) imports its Apache Beam API
(pipeline_dp/private_beam.py) unconditionally, although its own beam_backend.py treats Beam as
optional; Apache Beam is not installable here and LocalBackend never touches it.
install(("apache_beam",)) makes `import apache_beam[.anything]` succeed with modules whose every
lower-case attribute is such a module and every other an inert placeholder class (subclassable, so PipelineDP's class statements run), and
raises on any attempt to use one. Not part of the PyDP stand-in's API; bench-only.
"""
import importlib
import importlib.abc
import importlib.machinery
import sys
import types


class _Placeholder:
    def __init__(self, *args, **kwargs):
        raise RuntimeError(f"{type(self).__qualname__} is a placeholder of an absent package")


class _AbsentModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name[0].islower():  # `from apache_beam.transforms import ptransform`: a module
            return importlib.import_module(f"{self.__name__}.{name}")
        cls = type(name, (_Placeholder,), {"__module__": self.__name__,
                                           "__qualname__": f"{self.__name__}.{name}"})
        setattr(self, name, cls)
        return cls


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, roots):
        self._roots = tuple(roots)

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in self._roots:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = _AbsentModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def install(roots):
    """Serve placeholders for these top-level package names (appended last: a real install
    found earlier on sys.meta_path wins)."""
    sys.meta_path.append(_Finder(roots))
