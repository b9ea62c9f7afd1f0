"""``_protocol`` holds only what the client uses: a constant no module reads is dead weight
that drifts from the contract unnoticed (issue: unused Python protocol constants)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tock_client
from tock_client import _protocol

PACKAGE = Path(tock_client.__file__).parent


def protocol_names() -> list[str]:
    tree = ast.parse((PACKAGE / "_protocol.py").read_text(encoding="utf-8"))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_every_protocol_constant_is_used_by_the_client() -> None:
    others = "\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.glob("*.py"))
        if path.name != "_protocol.py"
    )
    unused = [name for name in protocol_names() if not re.search(rf"\b{name}\b", others)]
    assert unused == [], f"constants of _protocol.py that no module of tock_client uses: {unused}"


def test_the_unsigned_statuses_are_those_answered_before_verification() -> None:
    # 408: Node's parser gave up on a slow upload; 500: a failure before verification.
    assert {400, 401, 403, 408, 413, 429, 431, 500} == _protocol.UNSIGNED_STATUSES
