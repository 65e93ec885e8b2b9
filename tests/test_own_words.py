"""Text in the rule data is our own paraphrase: no run of 10 words is copied from a policy document.

The policy documents are not part of this repository; the test reads them from the folder named
by POLICY_SEEDS (default: ``shared/seeds`` beside the checkout) and is skipped where they are absent.
"""

import os
import re
from pathlib import Path

import pytest

import shared_rules

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("POLICY_SEEDS", ROOT.parent / "shared" / "seeds"))
RUN = 10


def words(text):
    return re.findall(r"[a-z0-9']+", text.lower())


def strings(node, path="$"):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from strings(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from strings(value, f"{path}[{i}]")
    elif isinstance(node, str):
        yield path, node


@pytest.mark.skipif(not SEEDS.is_dir(), reason="policy documents not available beside the checkout")
@pytest.mark.parametrize("ruleset", shared_rules.ruleset_ids())
def test_no_ten_word_run_is_copied_from_a_policy_document(ruleset):
    seed_words = words(" ".join(p.read_text(encoding="utf-8") for p in SEEDS.glob("*.txt")))
    runs = {tuple(seed_words[i:i + RUN]) for i in range(len(seed_words) - RUN + 1)}
    copied = []
    for path, text in strings(shared_rules.load_ruleset(ruleset)):
        w = words(text)
        copied += [f"{path}: {' '.join(w[i:i + RUN])}" for i in range(len(w) - RUN + 1) if tuple(w[i:i + RUN]) in runs]
    assert copied == []
