#!/usr/bin/env python3
"""Validate a SARIF log written by ompi-opt --check --format=sarif against
SARIF 2.1.0: the pydantic model generated from the OASIS schema
(pydantic-sarif; extra properties forbidden where the schema forbids them),
then what the schema cannot say: every result names a rule of the run, its
ruleIndex points at that rule, every location has a line and column, and
every URI is either relative to a base the run declares (%SRCROOT%, an
absolute file URI ending in '/') or an absolute file URI.

  sarif_validate.py FILE.sarif [EXPECTED_RESULTS]
scripts/setup installs pydantic-sarif and jsonschema."""
import json
import sys

try:
    from pydantic_sarif.model import StaticAnalysisResultsFormatSarifVersion210JsonSchema as SarifLog
except ImportError:
    sys.exit("sarif_validate: the pydantic-sarif package is missing (scripts/setup installs it)")

with open(sys.argv[1]) as f:
    text = f.read()
log = json.loads(text)
SarifLog.model_validate(log)  # raises with the path of the offending property
assert log["version"] == "2.1.0", log["version"]
n = 0
for run in log["runs"]:
    rules = run["tool"]["driver"]["rules"]
    bases = run.get("originalUriBaseIds", {})
    for b in bases.values():
        assert b["uri"].startswith("file:///") and b["uri"].endswith("/"), b
    ids = [r["id"] for r in rules]
    for res in run["results"]:
        assert res["ruleId"] in ids, res["ruleId"]
        assert ids[res["ruleIndex"]] == res["ruleId"], (res["ruleIndex"], res["ruleId"])
        for loc in res["locations"]:
            reg = loc["physicalLocation"]["region"]
            assert reg["startLine"] >= 1 and reg["startColumn"] >= 1, reg
            art = loc["physicalLocation"]["artifactLocation"]
            if "uriBaseId" in art:
                assert art["uriBaseId"] in bases and not art["uri"].startswith(("/", "file:")), art
            else:
                assert art["uri"].startswith("file:///"), art
        n += 1
if len(sys.argv) > 2 and n != int(sys.argv[2]):
    sys.exit("sarif_validate: %d results, expected %s" % (n, sys.argv[2]))
print("valid SARIF 2.1.0: %d results" % n)
