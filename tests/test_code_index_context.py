"""Planner context within a token budget, the crew's index retriever, and the CLI functions."""

import json

import pytest

from tools.code_index import (
    CodeIndex,
    Hit,
    build_context,
    cli_index,
    cli_search,
    context_tokens,
    retrieve_context,
)

SOURCES = {
    "shop/cart.py": '''class Cart:
    """A shopping cart holding line items."""

    def __init__(self):
        self.items = []

    def add_item(self, sku, qty=1):
        """Put a product into the cart."""
        self.items.append((sku, qty))

    def total_price(self, prices):
        """Sum the price of every item in the cart, quantity included."""
        return sum(prices[sku] * qty for sku, qty in self.items)
''',
    "shop/tax.py": '''VAT_RATE = 0.2


def add_vat(amount):
    """Add value-added tax to a net amount."""
    return round(amount * (1 + VAT_RATE), 2)
''',
    "notes.md": "# Shop\n\nPrices are stored in cents. Tax is added at checkout.\n",
}


@pytest.fixture
def index(tmp_path, embedder):
    ws = tmp_path / "shop_ws"
    for rel, text in SOURCES.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    return CodeIndex(ws, embedder=embedder)


def test_planner_context_event_carries_the_chunks(index):
    ctx = retrieve_context(index, "compute the total price of the cart", token_budget=1200)
    assert ctx.error is None and ctx.hits
    assert ctx.hits[0].symbol == "Cart.total_price"
    event = ctx.to_dict()
    json.dumps(event)  # serialisable as an event payload
    assert event["request"] == "compute the total price of the cart"
    assert event["token_budget"] == 1200 and 0 < event["tokens_used"] <= 1200
    text = ctx.as_prompt_text()
    assert event["prompt_text"] == text
    for hit in event["hits"]:  # exactly what the model saw, with scores
        assert {"path", "start_line", "end_line", "symbol", "score", "snippet"} <= set(hit)
        assert hit["snippet"] in text
        assert f"{hit['path']} lines {hit['start_line']}-{hit['end_line']}" in text
        assert f"score {hit['score']:.4f}" in text
    assert context_tokens(text) == ctx.tokens_used


def test_context_respects_a_small_budget(index):
    index.update()
    hits = index.search("cart price tax", k=8)
    assert len(hits) >= 3
    for budget in (60, 100, 200):
        ctx = build_context("cart price tax", hits, budget)
        assert ctx.tokens_used <= budget
        assert len(ctx.hits) + ctx.dropped == len(hits)
        for hit in ctx.hits:
            assert hit.snippet in ctx.as_prompt_text()
    assert build_context("q", hits, 5).hits == []  # nothing fits: empty, not over budget
    assert build_context("q", hits, 5).as_prompt_text() == ""


def test_a_hit_is_cut_to_fit_with_its_lines_adjusted():
    long = "\n".join(f"    line_{i} = compute({i})" for i in range(60))
    hit = Hit("big.py", 10, 69, "big", "python", 0.03, long)
    ctx = build_context("q", [hit], 200)
    assert len(ctx.hits) == 1 and ctx.tokens_used <= 200
    cut = ctx.hits[0]
    assert cut.start_line == 10 and cut.end_line < 69
    assert cut.end_line - cut.start_line + 1 == len(cut.snippet.split("\n"))
    assert f"big.py lines 10-{cut.end_line}" in ctx.as_prompt_text()


def test_retrieval_failure_gives_an_empty_context(index, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(index, "search", broken)
    ctx = retrieve_context(index, "anything")
    assert ctx.hits == [] and "disk on fire" in ctx.error and ctx.as_prompt_text() == ""


def test_the_crew_retriever_refreshes_and_uses_the_opened_index(index):
    from agents.context_retrieval import index_retriever

    index.update()
    (index.workspace / "shop" / "refund.py").write_text("def refund_order(order):\n    return -1\n")
    retrieve = index_retriever(index.workspace, opener=lambda: index)
    source, hits, text = retrieve("add value-added tax")
    assert source == "index" and hits and all(isinstance(hit, Hit) for hit in hits)
    assert "shop/tax.py" in text and "def add_vat" in text
    source, hits, text = retrieve("refund order")
    assert any(hit.path == "shop/refund.py" for hit in hits)  # re-scanned first


def test_cli_index_and_search(index, capsys):
    ws = index.workspace
    assert cli_index(ws, as_json=True) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["files_scanned"] == 3 and report["chunks_total"] > 0

    assert cli_index(ws) == 0
    assert "3 files scanned" in capsys.readouterr().out

    assert cli_search("add tax to an amount", ws, k=3, as_json=True) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hits"][0]["path"] == "shop/tax.py" and out["hits"][0]["symbol"] == "add_vat"

    assert cli_search("add tax to an amount", ws, k=2) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("1. shop/tax.py:4-6  add_vat  (score ")

    assert cli_search("x", ws / "missing", k=2) == 2
    assert "not a folder" in capsys.readouterr().err
    assert cli_index(ws / "missing") == 2
    assert cli_search("x", ws, mode="psychic") == 2


def test_context_does_not_wait_for_a_running_update(index):
    from tools.atomic_files import FileLock

    index.update()
    (index.workspace / "shop" / "new.py").write_text("def refund(order):\n    return -1\n")
    busy = FileLock(index._lock_path)
    assert busy.acquire()  # as if another process were indexing
    try:
        assert index.try_update() is None
        ctx = retrieve_context(index, "add value-added tax", token_budget=400)
        assert ctx.error is None and ctx.hits  # searched what is indexed, did not block
        assert all(h.path != "shop/new.py" for h in ctx.hits)
    finally:
        busy.release()
    assert index.try_update().files_embedded == 1
