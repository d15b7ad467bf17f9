"""Schemathesis against the server's own ``/api/openapi.json`` (every route with its body
schema): requests generated from the schema, valid ones and broken ones (negative data),
each answered without a 5xx and, under ``/api/``, refused with an ``{"error"}`` body.
A real server per database, with the rate limits off so that every request is judged on
its content (the limits have their own tests)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from services import Server

from conftest import _start

EXAMPLES = 15  # per operation and mode: about 400 requests a database


@pytest.fixture(scope="module")
def fuzzed(request: pytest.FixtureRequest, database: str, tmp_path_factory) -> Server:
    process = _start(request, database, tmp_path_factory.mktemp("schema"),
                     ("--rate-limit", "off"))
    request.addfinalizer(process.stop)
    return process


def test_no_request_the_schema_describes_gets_a_5xx(fuzzed: Server):
    schema = schemathesis.openapi.from_url(f"{fuzzed.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    checked: list[str] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def check(case) -> None:
                response = case.call(timeout=60)
                where = f"{case.method} {case.formatted_path}"
                assert response.status_code < 500, (
                    f"{where}: {response.status_code} {response.text[:300]}")
                if response.status_code >= 400:
                    assert set(response.json()) == {"error"}, (where, response.text[:300])
                checked.append(where)

            try:
                check()
            except Unsatisfiable:  # nothing can break this operation's input (no params)
                assert mode == GenerationMode.NEGATIVE
    assert len(checked) > 10 * len(operations)
    log = fuzzed.log.read_text(errors="replace")
    assert "internal error" not in log
