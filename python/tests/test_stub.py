"""_exactdp.pyi names exactly what the built extension holds: every function and class of the
module (its private ones included, which stubtest skips when one side lacks them) and every
method of its classes. stubtest (ctest python_stubtest) checks the rest of the stub."""

import ast
import pathlib

import exactdp
from exactdp import _exactdp

STUB = pathlib.Path(exactdp.__file__).with_name("_exactdp.pyi")


def _stub_names():
    tree = ast.parse(STUB.read_text())
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: {m.name for m in n.body if isinstance(m, ast.FunctionDef)}
               for n in tree.body if isinstance(n, ast.ClassDef)}
    return functions, classes


def _runtime_members(obj):
    return {name for name in vars(obj) if not (name.startswith("__") and name.endswith("__"))}


def test_stub_functions_and_classes_are_the_modules():
    functions, classes = _stub_names()
    runtime = _runtime_members(_exactdp)
    runtime_classes = {name for name in runtime if isinstance(getattr(_exactdp, name), type)
                       and not issubclass(getattr(_exactdp, name), BaseException)}
    runtime_functions = {name for name in runtime - runtime_classes if callable(getattr(_exactdp, name))
                         and not isinstance(getattr(_exactdp, name), type)}
    assert functions == runtime_functions
    assert set(classes) == runtime_classes


def test_stub_methods_are_the_classes():
    _, classes = _stub_names()
    for name, methods in classes.items():
        runtime = _runtime_members(getattr(_exactdp, name)) | {"__init__"}
        assert methods <= runtime, name
        public = {m for m in _runtime_members(getattr(_exactdp, name)) if not m.startswith("_pybind11")}
        assert public <= methods, name
