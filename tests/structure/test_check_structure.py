"""scripts/check-structure: the real tree passes; each rule fails on a planted violation.

The rules run on a copy of the tree's sources (--root), so a planted file never touches the
working tree. ctest runs this file (structure_check_tests); the script itself on the real tree
is the test structure_check.
"""

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "check-structure"
SOURCE_SUFFIXES = (".h", ".cc")


def load_script():
    sys.dont_write_bytecode = True
    loader = importlib.machinery.SourceFileLoader("check_structure", str(SCRIPT))
    spec = importlib.util.spec_from_loader("check_structure", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


CS = load_script()


def run(root):
    r = subprocess.run([sys.executable, str(SCRIPT), "--root", str(root)], capture_output=True, text=True,
                       timeout=120)
    return r.returncode, r.stdout + r.stderr


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A small copy of the tree: cmake/ExactdpLayer.cmake, laws/ (the registry's names) and every
    file the script's lists name. The rules read it as they read the whole tree."""
    root = tmp_path_factory.mktemp("tree")
    files = {"cmake/ExactdpLayer.cmake"}
    for dirpath, _, filenames in os.walk(REPO / "laws"):
        files |= {str((Path(dirpath) / n).relative_to(REPO))
                  for n in filenames if n.endswith(SOURCE_SUFFIXES)}
    files |= set(CS.FLOAT_ALLOWED) | set(CS.FILE_BASELINE) | set(CS.LAW_LIST_BASELINE)
    files |= {rel for rel, _ in CS.FUNCTION_BASELINE} | {rel for rel, _ in CS.INTERNAL_BASELINE}
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / rel, root / rel)
    return root


@pytest.fixture
def plant(tree):
    """plant(path, text): writes a file into the copy; undone after the test."""
    saved = []

    def write(rel, text):
        path = tree / rel
        saved.append((path, path.read_text() if path.exists() else None))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    yield write
    for path, old in reversed(saved):
        if old is None:
            path.unlink()
        else:
            path.write_text(old)


def violations(tree, rule):
    rc, out = run(tree)
    lines = [ln for ln in out.splitlines() if f": {rule}: " in ln]
    return rc, lines, out


def test_the_real_tree_passes():
    rc, out = run(REPO)
    assert rc == 0, out
    assert "0 violation(s)" in out and "baseline debt" in out


def test_the_copy_passes(tree):
    rc, out = run(tree)
    assert rc == 0, out
    assert "note:" not in out, out   # every listed file is in the copy


def test_layers_are_read_from_cmake():
    layers = CS.read_layers(REPO)
    assert layers[0] == "core" and layers[-1] == "c_api"
    assert layers.index("samplers") < layers.index("accounting") < layers.index("laws")
    for layer in layers:
        assert (REPO / layer).is_dir(), layer


@pytest.mark.parametrize("rel,include", [
    ("samplers/planted_up.cc", "#include <exactdp/mechanisms/exactdp.h>\n"),
    ("core/planted_up.cc", '#include "accounting/interval.h"\n'),
    ("accounting/planted_up.h", "#include <exactdp/exactdp.h>\n"),
    ("mechanisms/planted_up.cc", '#include "cli/args.h"\n'),
    ("python/src/planted_up.cc", '#include "cli/args.h"\n'),
    ("laws/planted_up.cc", '#include "tests/support/seeds.h"\n'),
])
def test_an_upward_include_fails(tree, plant, rel, include):
    plant(rel, "// planted\n" + include)
    rc, lines, out = violations(tree, "layer-order")
    assert rc == 1, out
    assert [ln for ln in lines if ln.startswith(f"{rel}:2: layer-order:")], out


def test_public_headers_belong_to_a_layer(tree, plant):
    # include/exactdp/X.h (the C interface and the C++ facade) belongs to the last layer, which
    # implements it; include/exactdp/LAYER/X.h to LAYER.
    plant("include/exactdp/planted_facade.h", "#pragma once\n#include <exactdp/laws/law.h>\n")
    plant("include/exactdp/core/planted_core.h", "#pragma once\n#include <exactdp/samplers/bit_source.h>\n")
    plant("c_api/planted_user.cc", "#include <exactdp/planted_facade.h>\n")
    plant("mechanisms/planted_user.cc", "#include <exactdp/planted_facade.h>\n")
    rc, lines, out = violations(tree, "layer-order")
    assert rc == 1, out
    assert sorted(ln.split(":")[0] for ln in lines) == ["include/exactdp/core/planted_core.h",
                                                       "mechanisms/planted_user.cc"], out


def test_a_commented_include_is_not_an_include(tree, plant):
    plant("samplers/planted_comment.cc", "// #include <exactdp/mechanisms/exactdp.h>\n"
          "/* #include <exactdp/laws/law.h> */\nconst char* k = \"#include <exactdp/laws/law.h>\";\n")
    rc, out = run(tree)
    assert rc == 0, out


def test_the_order_comes_from_cmake(tree, plant):
    plant("verification/planted_order.cc", "#include <exactdp/laws/law.h>\n")
    rc, lines, out = violations(tree, "layer-order")
    assert rc == 1 and lines, out
    cmake = (tree / "cmake" / "ExactdpLayer.cmake").read_text()
    plant("cmake/ExactdpLayer.cmake", cmake.replace("verification laws", "laws verification"))
    rc, lines, out = violations(tree, "layer-order")
    assert not [ln for ln in lines if "planted_order" in ln], out


def test_an_include_into_another_folders_internal_fails(tree, plant):
    plant("mechanisms/planted_internal.cc", "#include <exactdp/samplers/internal/cks20.h>\n")
    plant("mechanisms/selection/planted_internal.cc",
          '#include "mechanisms/release/internal/noise_drawer.h"\n')
    plant("samplers/planted_own_internal.cc", "#include <exactdp/samplers/internal/cks20.h>\n")
    rc, lines, out = violations(tree, "internal")
    assert rc == 1, out
    assert any(ln.startswith("mechanisms/planted_internal.cc:1: internal:") for ln in lines), out
    assert any(ln.startswith("mechanisms/selection/planted_internal.cc:1: internal:") for ln in lines), out
    assert not [ln for ln in lines if "planted_own_internal" in ln], out


@pytest.mark.parametrize("code,what", [
    ("double x = 0;\n", "'double'"),
    ("long double x = 0;\n", "'double'"),
    ("float f(int);\n", "'float'"),
    ("std::float_t x;\n", "'std::float_t'"),
    ("auto half = 0.5;\n", "'0.5'"),
    ("auto big = 1e9;\n", "'1e9'"),
    ("auto r = std::sqrt(n);\n", "'std::sqrt'"),
    ("auto d = q.get_d();\n", "'.get_d'"),
    ("#include <cmath>\n", "<cmath>"),
])
def test_floating_point_in_a_sampler_fails(tree, plant, code, what):
    plant("samplers/planted_float.cc", "// planted\n" + code)
    rc, lines, out = violations(tree, "float")
    assert rc == 1, out
    assert [ln for ln in lines if ln.startswith("samplers/planted_float.cc:2: float:") and what in ln], out


def test_floating_point_words_in_comments_strings_and_numbers_pass(tree, plant):
    plant("samplers/planted_words.cc",
          "// a double draw, float\n/* double */\nconst char* a = \"double float 0.5\";\n"
          "const char* b = R\"x(double \"quoted\" float)x\";\nchar c = '\"';\nchar d = '\\'';\n"
          "long n = 1'000'000;\nint float_grid_size = 0x1F;\nauto v = std::vector<int>{1, 2};\n"
          "const char* e = \"after the literals: still no float\";\n")
    rc, out = run(tree)
    assert rc == 0, out


def test_the_float_allow_list_is_per_file(tree, plant):
    assert "mechanisms/grid_noise/float_grid.h" in CS.FLOAT_ALLOWED
    path = "mechanisms/grid_noise/float_grid.h"
    plant(path, (tree / path).read_text() + "\ninline double planted_allowed() { return 0.5; }\n")
    rc, out = run(tree)
    assert rc == 0, out


def function_of(lines, name="planted"):
    body = "".join(f"  x += {i};\n" for i in range(lines))
    return f"int {name}(int x) {{\n{body}  return x;\n}}\n"


def test_a_function_over_80_lines_fails(tree, plant):
    plant("cli/planted_long.cc", "namespace a {\n" + function_of(77) + "}\n")   # 80 lines
    rc, out = run(tree)
    assert rc == 0, out
    plant("cli/planted_long.cc",
          "namespace a {\nstruct S {\n  S() : v_{1} {}\n};\n" + function_of(78) + "}\n")
    rc, lines, out = violations(tree, "function-size")
    assert rc == 1, out
    assert [ln for ln in lines if ln.startswith("cli/planted_long.cc:5: function-size: planted has 81")], out


def test_long_functions_in_tests_pass(tree, plant):
    plant("tests/core/planted_long_test.cc", function_of(200) + "\n" * 900)
    rc, out = run(tree)
    assert rc == 0, out


def test_a_file_over_800_lines_fails(tree, plant):
    plant("accounting/planted_big.cc", "// line\n" * 800)
    rc, out = run(tree)
    assert rc == 0, out
    plant("accounting/planted_big.cc", "// line\n" * 801)
    rc, lines, out = violations(tree, "file-size")
    assert rc == 1, out
    assert [ln for ln in lines if ln.startswith("accounting/planted_big.cc:1: file-size: 801 lines")], out


def test_a_baseline_function_may_not_grow(tree, plant):
    # A copy of the script whose baseline holds one planted function of 90 lines (the real
    # baseline may be empty): it passes as it is and fails at 91 lines.
    script = SCRIPT.read_text().replace("FUNCTION_BASELINE = {\n",
                                        'FUNCTION_BASELINE = {\n    ("accounting/planted_long.cc", "long_one"): 90,\n', 1)
    plant("planted_check_structure.py", script)

    def run_copy():
        r = subprocess.run([sys.executable, str(tree / "planted_check_structure.py"), "--root", str(tree)],
                           capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout + r.stderr

    def long_function(lines):
        return "int long_one() {\n" + "  int x = 0;\n" * (lines - 3) + "  return x;\n}\n"

    plant("accounting/planted_long.cc", long_function(90))
    rc, out = run_copy()
    assert not [ln for ln in out.splitlines() if ": function-size: " in ln], out
    plant("accounting/planted_long.cc", long_function(91))
    rc, out = run_copy()
    assert rc == 1, out
    grown = "long_one has 91 lines, grown"
    assert [ln for ln in out.splitlines() if ln.startswith("accounting/planted_long.cc:") and grown in ln], out


def test_a_new_law_name_list_fails(tree, plant):
    plant("mechanisms/planted_laws.cc", 'const char* k[] = {"gaussian",\n "laplace", "zcdp", "gaussian"};\n')
    plant("python/exactdp/planted_laws.py", 'KNOWN = ("discrete-gaussian", "staircase", "gdp")\n')
    plant("cli/planted_two_laws.cc", 'const char* k[] = {"gaussian", "laplace", "not-a-law", "Gaussian"};\n')
    plant("laws/planted_laws.cc", 'const char* k[] = {"gaussian", "laplace", "zcdp"};\n')
    rc, lines, out = violations(tree, "law-list")
    assert rc == 1, out
    assert [ln for ln in lines if ln.startswith("mechanisms/planted_laws.cc:1: law-list: names 3")], out
    assert [ln for ln in lines if ln.startswith("python/exactdp/planted_laws.py:1: law-list: names 3")], out
    assert not [ln for ln in lines if "planted_two_laws" in ln or "laws/planted_laws" in ln], out


def test_a_baseline_law_list_may_not_grow(tree, plant):
    # A copy of the script whose baseline holds one planted list of three laws (the real baseline
    # may be empty): the list passes as it is and fails with a fourth law.
    names = CS.registry_law_names(str(tree))
    script = SCRIPT.read_text().replace("LAW_LIST_BASELINE = {\n",
                                        'LAW_LIST_BASELINE = {\n    "cli/planted_list.cc": 3,\n', 1)
    plant("planted_check_structure.py", script)
    listed = "".join(f'const char* k{i} = "{n}";\n' for i, n in enumerate(names[:3]))

    def run_copy():
        r = subprocess.run([sys.executable, str(tree / "planted_check_structure.py"), "--root", str(tree)],
                           capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout + r.stderr

    plant("cli/planted_list.cc", listed)
    rc, out = run_copy()
    assert not [ln for ln in out.splitlines() if ": law-list: " in ln], out
    plant("cli/planted_list.cc", listed + f'const char* k3 = "{names[3]}";\n')
    rc, out = run_copy()
    assert rc == 1, out
    assert [ln for ln in out.splitlines() if ln.startswith("cli/planted_list.cc:1: law-list: names 4")], out


def test_asking_an_event_for_its_kind_fails(tree, plant):
    plant("accounting/planted_route.cc",
          "// PrivacyEvent::Kind and .kind() in a comment pass\n"
          "const char* s = \"PrivacyEvent::Kind\";\n"
          "bool gaussian(const E& e) {\n  return e.kind() == PrivacyEvent::Kind::kGaussian;\n}\n")
    plant("accounting/planted_event.h", "class PrivacyEvent {\n public:\n  enum class Kind { kLaw };\n};\n")
    plant("laws/planted_law.cc", "bool f(const E& e) { return e.kind() == PrivacyEvent::Kind::kLaw; }\n")
    rc, lines, out = violations(tree, "event-kind")
    assert rc == 1, out
    assert [ln for ln in lines if ln.startswith("accounting/planted_route.cc:4: event-kind: calls .kind()")], out
    assert [ln for ln in lines if ln.startswith("accounting/planted_route.cc:4: event-kind: names PrivacyEvent::Kind")], out
    assert [ln for ln in lines if ln.startswith("accounting/planted_event.h:3: event-kind: declares an enum")], out
    assert len(lines) == 3, out


def test_law_names_come_from_the_registry():
    names = CS.registry_law_names(REPO)
    assert {"discrete-gaussian", "discrete-laplace", "bernoulli-exp", "staircase", "gaussian"} <= set(names)
    assert len(names) == len(set(names))


def test_a_stale_allow_list_entry_is_noted_not_failed(tree, plant):
    plant("mechanisms/estimation/peeling.h", "// no floating point left\nint peeling();\n")
    rc, out = run(tree)
    assert rc == 0, out
    note = "note: mechanisms/estimation/peeling.h: listed in FLOAT_ALLOWED but uses no floating point"
    assert note in out, out
