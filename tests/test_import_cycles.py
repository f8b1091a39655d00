"""No import cycles in ``rules``, ``scenarios``, ``pbem`` and ``ardennes_tui``.

The import graph is grimp's (the library under import-linter): every ``import`` statement,
including those inside functions, which is where cycles usually hide. A cycle is a strongly
connected component of more than one module (or a module importing itself); each is reported
with one shortest loop through it and the line of each import on that loop.

A package ``__init__`` that re-exports its submodules (``render/__init__.py`` importing
``render.detail``) is no cycle as long as the submodules import their siblings directly
(``from ardennes_tui.render import palette`` is an import of ``ardennes_tui.render.palette``);
a submodule that imports a name from its own package's ``__init__`` closes a loop through
the ``__init__`` and is reported like any other.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from itertools import pairwise
from pathlib import Path

import grimp
import pytest

PACKAGES = ("rules", "scenarios", "pbem", "ardennes_tui")

Graph = Mapping[str, Iterable[str]]
"""Module -> the modules it imports (a module missing as a key imports nothing)."""


def strongly_connected(imports: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components of ``imports`` (iterative: no recursion limit),
    each sorted; the components are sorted too."""
    targets = {m: sorted(set(ts)) for m, ts in imports.items()}
    for ts in list(targets.values()):
        for t in ts:
            targets.setdefault(t, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(targets):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            children = targets[node]
            if i > 0:  # back from children[i - 1]
                low[node] = min(low[node], low[children[i - 1]])
            while i < len(children) and children[i] in index:
                if children[i] in on_stack:
                    low[node] = min(low[node], index[children[i]])
                i += 1
            if i < len(children):
                work.append((node, i + 1))
                work.append((children[i], 0))
                continue
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return sorted(components)


def shortest_loop(component: list[str], imports: Graph) -> list[str]:
    """A shortest import loop through the first module of ``component``, within it:
    ``[a, b, ..., a]``."""
    members = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(set(imports.get(node, ()))):
            if nxt not in members:
                continue
            if nxt == start:
                loop = [node]
                while loop[-1] != start:
                    loop.append(came_from[loop[-1]])
                return [*reversed(loop), start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise ValueError(f"{component} is not a cycle of the graph")


def find_cycles(imports: Graph) -> list[list[str]]:
    """Every cycle of ``imports``, as one shortest loop per strongly connected component
    (``[a, b, a]``), sorted by component."""
    return [
        shortest_loop(c, imports)
        for c in strongly_connected(imports)
        if len(c) > 1 or c[0] in set(imports.get(c[0], ()))
    ]


def import_graph(*packages: str) -> tuple[grimp.ImportGraph, dict[str, set[str]]]:
    graph = grimp.build_graph(*packages, cache_dir=None)
    return graph, {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}


def describe(loop: list[str], graph: grimp.ImportGraph) -> str:
    """``a -> b -> a`` and, for each import, where it is."""
    lines = [" -> ".join(loop)]
    for importer, imported in pairwise(loop):
        for d in graph.get_import_details(importer=importer, imported=imported):
            lines.append(
                f"    {importer} -> {imported}: line {d['line_number']}: {d['line_contents']}"
            )
    return "\n".join(lines)


# -- the packages ---------------------------------------------------------------------------------


def test_no_import_cycles() -> None:
    graph, imports = import_graph(*PACKAGES)
    found = find_cycles(imports)
    assert not found, f"{len(found)} import cycle(s):\n" + "\n".join(
        describe(c, graph) for c in found
    )


# -- the cycle finder on small graphs -------------------------------------------------------------


def test_a_chain_is_no_cycle() -> None:
    assert find_cycles({"a": ["b"], "b": ["c"], "c": []}) == []
    assert find_cycles({}) == []


def test_two_modules_importing_each_other() -> None:
    assert find_cycles({"a": ["b"], "b": ["a"]}) == [["a", "b", "a"]]


def test_a_self_import_is_a_cycle() -> None:
    assert find_cycles({"a": ["a", "b"]}) == [["a", "a"]]


def test_the_shortest_loop_of_a_component_is_reported() -> None:
    # a -> b -> c -> d -> a and the shortcut c -> a: one component, loop a b c a
    imports = {"a": ["b", "x"], "b": ["c"], "c": ["d", "a"], "d": ["a"], "x": ["y"]}
    assert strongly_connected(imports) == [["a", "b", "c", "d"], ["x"], ["y"]]
    assert find_cycles(imports) == [["a", "b", "c", "a"]]


def test_every_component_is_reported() -> None:
    imports = {"p.a": ["p.b"], "p.b": ["p.a", "q.a"]}
    imports |= {"q.a": ["q.b"], "q.b": ["q.c"], "q.c": ["q.a"]}
    assert find_cycles(imports) == [["p.a", "p.b", "p.a"], ["q.a", "q.b", "q.c", "q.a"]]


def test_a_package_re_exporting_its_submodules_is_no_cycle() -> None:
    imports = {"pkg": ["pkg.a", "pkg.b"], "pkg.a": ["pkg.b"], "pkg.b": []}
    assert find_cycles(imports) == []


def test_a_submodule_importing_its_package_init_is_a_cycle() -> None:
    imports = {"pkg": ["pkg.a", "pkg.b"], "pkg.a": ["pkg.b"], "pkg.b": ["pkg"]}
    assert find_cycles(imports) == [["pkg", "pkg.b", "pkg"]]


def test_a_long_chain_needs_no_recursion() -> None:
    n = 5000
    imports = {f"m{i}": [f"m{i + 1}"] for i in range(n)} | {f"m{n}": ["m0"]}
    (loop,) = find_cycles(imports)
    assert len(loop) == n + 2 and loop[0] == loop[-1] == "m0"


def test_grimp_sees_a_cycle_through_an_import_in_a_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end on a package on disk: the import inside a function counts, and the report
    names the loop and its lines."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclepkg.b import g\n\n\ndef f():\n    return g()\n")
    (pkg / "b.py").write_text("def g():\n    from cyclepkg.a import f\n\n    return f\n")
    (pkg / "c.py").write_text("import cyclepkg.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph, imports = import_graph("cyclepkg")
    (loop,) = find_cycles(imports)
    assert loop == ["cyclepkg.a", "cyclepkg.b", "cyclepkg.a"]
    assert describe(loop, graph).splitlines() == [
        "cyclepkg.a -> cyclepkg.b -> cyclepkg.a",
        "    cyclepkg.a -> cyclepkg.b: line 1: from cyclepkg.b import g",
        "    cyclepkg.b -> cyclepkg.a: line 2: from cyclepkg.a import f",
    ]
