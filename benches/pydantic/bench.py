"""Baseline C: Pydantic v2 on the vacation contract, timed per document.

Strict mode, extra='forbid', the status rules and the date order as an
after-validator: the nearest Python equivalent of the Rust contract. Prints
one JSON line per case with the median nanoseconds per document.
"""
import json
import statistics
import sys
import time
from datetime import date
from enum import Enum
from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class Status(str, Enum):
    complete = "complete"
    needs_clarification = "needs_clarification"
    not_a_request = "not_a_request"


class VacationRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    status: Status
    start_date: Optional[date]
    end_date: Optional[date]
    clarification_question: Optional[str] = Field(min_length=1, max_length=500)

    @model_validator(mode="after")
    def rules(self):
        errors = []
        s = self.status
        if s == Status.complete:
            if self.start_date is None:
                errors.append("start_date required")
            if self.end_date is None:
                errors.append("end_date required")
            if self.clarification_question is not None:
                errors.append("clarification_question forbidden")
        elif s == Status.needs_clarification:
            if self.clarification_question is None:
                errors.append("clarification_question required")
        elif s == Status.not_a_request:
            if self.start_date is not None or self.end_date is not None:
                errors.append("dates forbidden")
        if self.start_date and self.end_date and self.end_date < self.start_date:
            errors.append("end_date before start_date")
        if errors:
            raise ValueError("; ".join(errors))
        return self


# The same documents as tests/benches/decode.rs.
VALID = [
    '{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}',
    '{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates do you mean?"}',
    '{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}',
]
ONE_ERROR = '{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null,"x":1}'
MANY_ERRORS = '{"status":"done","start_date":"2027-02-30","end_date":7,"clarification_question":"","extra":[1,2]}'


def run(docs, rounds=30, per_round=2000):
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(per_round):
            for d in docs:
                try:
                    VacationRequest.model_validate_json(d)
                except ValidationError:
                    pass
        samples.append((time.perf_counter_ns() - start) / (per_round * len(docs)))
    return statistics.median(samples)


def main():
    import pydantic

    # Sanity: the model decides as the contract does.
    for d in VALID:
        VacationRequest.model_validate_json(d)
    for d in (ONE_ERROR, MANY_ERRORS):
        try:
            VacationRequest.model_validate_json(d)
            sys.exit(f"accepted an invalid document: {d}")
        except ValidationError:
            pass
    for case, docs in (("valid", VALID), ("one error", [ONE_ERROR]), ("many errors", [MANY_ERRORS])):
        print(json.dumps({"contract": "vacation", "case": case, "pydantic": pydantic.VERSION,
                          "median_ns_per_doc": round(run(docs), 1)}))


if __name__ == "__main__":
    main()
