"""Writes benches/documents.json: the documents every decode benchmark uses.

Both sides read that one file, so they cannot drift apart:
`tests/benches/decode.rs` (ours, baselines A and B) embeds it with
`include_str!`, and `benches/pydantic/bench.py` (baseline C) loads it.
Each document is stored as a JSON *string*, byte for byte as it is decoded.

Per contract:
- `valid`: documents every side accepts (the set is timed as one iteration;
  results are reported per document);
- `one_error`: one document with one error that every side detects (a wrong
  type or an unknown key, never a bound that baseline A does not check);
- `many_errors`: one document with several errors of different kinds;
- `errors`: how many errors our decoder reports for each invalid document
  (the benchmark checks it before timing).

Deterministic: run `python3 benches/make_documents.py` after editing and
commit both files.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --- close-ticket (seed 000) -------------------------------------------------
CLOSE_TICKET = {
    "valid": [
        '{"action":"close_ticket","ticket_id":7,"reason":"Solicitação resolvida"}',
        '{"action":"close_ticket","ticket_id":8,"reason":"Customer confirmed the fix on the call"}',
        '{"reason":"Duplicate of ticket 7","ticket_id":9,"action":"close_ticket"}',
    ],
    # The wrong type is the last member: every side reads the whole document.
    "one_error": '{"action":"close_ticket","reason":"Solicitação resolvida","ticket_id":"7"}',
    "many_errors": '{"action":"close","ticket_id":0,"reason":"","tenant":"demo-b"}',
}

# --- settings (seed 001) -----------------------------------------------------
SETTINGS = {
    "valid": [
        '{"notifications":{"email":true},"retry_limit":3,"channels":["email","sms"]}',
        '{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}',
        '{"channels":["email","sms","push","webhook"],"retry_limit":10,"notifications":{"email":true}}',
    ],
    "one_error": '{"retry_limit":3,"channels":["email","sms"],"notifications":{"email":0}}',
    "many_errors": '{"notifications":{"email":"no","push":true},"retry_limit":-1,"channels":["email",2,null]}',
}

# --- triage (seed 002) -------------------------------------------------------
TRIAGE = {
    "valid": [
        '{"categoria":"bug","prioridade":"alta","confianca":0.9,"motivo":"Erro 500 ao salvar o pedido"}',
        '{"categoria":"cobranca","prioridade":"normal","confianca":0.75,"motivo":"Cliente pergunta sobre cobrança duplicada no cartão"}',
        '{"categoria":"duvida","prioridade":"baixa","confianca":1,"motivo":""}',
    ],
    "one_error": '{"categoria":"bug","prioridade":"alta","motivo":"Erro 500 ao salvar","confianca":true}',
    "many_errors": '{"categoria":"Bug","prioridade":"urgente","confianca":1.5,"motivo":42,"idioma":"pt"}',
}

# --- ticket-extraction (seed 003) --------------------------------------------
TICKET_EXTRACTION = {
    "valid": [
        '{"issue_summary":"PDF export fails on the billing page","deadline_iso":"2027-03-15",'
        '"deadline_context":null,"affected_cluster":"eu-central-1","raw_quote":"the PDF export fails every time"}',
        '{"issue_summary":"Login loop after password reset","deadline_iso":null,'
        '"deadline_context":"before the end of the quarter, if possible","affected_cluster":null,"raw_quote":null}',
        '{"issue_summary":"Webhook deliveries delayed by ~10 minutes","deadline_iso":"2027-01-31",'
        '"deadline_context":"unless the migration slips","affected_cluster":null,'
        '"raw_quote":"deliveries are \\"late\\" since Monday"}',
    ],
    "one_error": '{"issue_summary":"PDF export fails on the billing page","deadline_iso":"2027-03-15",'
    '"deadline_context":null,"raw_quote":"the PDF export fails every time","affected_cluster":["eu-central-1"]}',
    # No `deadline_iso` key (a quarantined field, but a missing key still rejects).
    "many_errors": '{"issue_summary":"","deadline_context":5,"affected_cluster":true,"raw_quote":null,"priority":"high"}',
}

# --- vacation (seed 004) -----------------------------------------------------
VACATION = {
    "valid": [
        '{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}',
        '{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates do you mean?"}',
        '{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}',
    ],
    "one_error": '{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null,"x":1}',
    "many_errors": '{"status":"done","start_date":"2027-02-30","end_date":7,"clarification_question":"","extra":[1,2]}',
}

# --- invoice (the larger contract, defined in tests/benches/decode.rs) -------
KINDS = ["goods", "service", "shipping", "goods", "discount"]


def invoice_line(i, ship):
    return {
        "sku": f"A-{i:03d}",
        "qty": 1 + (i * 7) % 12,
        "cents": 150 + (i * 389) % 9000,
        "tax": [0.0, 0.06, 0.13, 0.23][i % 4],
        "kind": KINDS[i % len(KINDS)],
        "ship": f"2027-{1 + i % 12:02d}-{1 + (i * 3) % 28:02d}" if ship(i) else None,
    }


def invoice(paid):
    return {
        "number": "INV-2027-000123" if paid else "INV-2027-000124",
        "status": "paid" if paid else "issued",
        "currency": "eur" if paid else "brl",
        "issued_on": "2027-05-02",
        "due_on": "2027-06-01",
        "paid_on": "2027-05-20" if paid else None,
        "customer": {
            "name": "José Álvarez e Filhos, Lda." if paid else "Acme \"Widgets\" GmbH",
            "email": "billing@example.com",
            "vip": paid,
            "address": {
                "street": "Rua das Flores 12, 3.º esq." if paid else "Hauptstraße 5",
                "city": "Lisboa" if paid else "München",
                "postal_code": "1200-192" if paid else "80331",
                "country": "PT" if paid else "DE",
            },
        },
        "lines": [invoice_line(i, (lambda i: True) if paid else (lambda i: i % 3 != 0)) for i in range(50)],
        "notes": "Paid by bank transfer; ref \"5521\"." if paid else None,
    }


def invoice_one_error():
    doc = invoice(False)
    doc["lines"][25]["qty"] = str(doc["lines"][25]["qty"])  # a string for an integer, mid-document
    return doc


def invoice_many_errors():
    doc = invoice(True)
    doc["status"] = "unpaid"  # not a variant
    doc["issued_on"] = "2027-13-01"  # not a calendar date
    del doc["due_on"]  # missing
    doc["customer"]["vip"] = "yes"  # wrong type
    doc["customer"]["address"]["country"] = "PRT"  # too long
    doc["lines"][3]["tax"] = 1.5  # above max
    doc["lines"][10]["kind"] = "gift"  # not a variant
    doc["lines"][20]["qty"] = 0  # below min
    doc["lines"][30]["ship"] = "tomorrow"  # not a date
    doc["lines"][40]["discount"] = 5  # unknown key
    doc["lines"][49]["cents"] = -5  # negative for an unsigned
    doc["notes"] = 12  # wrong type
    return doc


INVOICE = {
    "valid": [compact(invoice(True)), compact(invoice(False))],
    "one_error": compact(invoice_one_error()),
    "many_errors": compact(invoice_many_errors()),
}

# How many errors our decoder reports (checked by the benchmark before timing).
ERRORS = {
    "close_ticket": (1, 4),
    "settings": (1, 5),
    "triage": (1, 5),
    "ticket_extraction": (1, 5),
    "vacation": (1, 5),
    "invoice": (1, 12),
}


def main():
    contracts = {
        "close_ticket": CLOSE_TICKET,
        "settings": SETTINGS,
        "triage": TRIAGE,
        "ticket_extraction": TICKET_EXTRACTION,
        "vacation": VACATION,
        "invoice": INVOICE,
    }
    for name, docs in contracts.items():
        for doc in docs["valid"] + [docs["one_error"], docs["many_errors"]]:
            json.loads(doc)  # every document is well-formed JSON
        one, many = ERRORS[name]
        docs["errors"] = {"one_error": one, "many_errors": many}
    out = {
        "comment": "Generated by benches/make_documents.py; read by tests/benches/decode.rs and "
        "benches/pydantic/bench.py. Each document is a JSON string holding the exact bytes decoded.",
        "contracts": contracts,
    }
    path = os.path.join(HERE, "documents.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    for name, docs in contracts.items():
        sizes = [len(d.encode()) for d in docs["valid"]]
        print(f"{name}: valid {sizes} bytes, one error {len(docs['one_error'].encode())}, "
              f"many errors {len(docs['many_errors'].encode())}")


if __name__ == "__main__":
    main()
