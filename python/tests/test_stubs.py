"""The type stubs ship with the package and name exactly what the module has."""

import ast
import pathlib

import damka


def stub_tree():
    path = pathlib.Path(damka.__file__).with_name("__init__.pyi")
    assert path.is_file(), f"no stubs installed at {path}"
    assert path.with_name("py.typed").is_file()
    return ast.parse(path.read_text())


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stubs_name_the_module_s_functions_and_classes():
    tree = stub_tree()
    top = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    module = public(name for name in dir(damka) if name not in {"damka"})
    assert top == module
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            assert public(members) == public(dir(getattr(damka, node.name))) - public(
                dir(Exception)
            ), node.name
