"""Word statistics: JSON on stdin, JSON on stdout (the skillkit protocol)."""
import collections
import json
import re
import sys


def main() -> int:
    data = json.load(sys.stdin)
    text = data.get("text")
    if not isinstance(text, str):
        print("input.text must be a string", file=sys.stderr)
        return 2
    top = int(data.get("top", 5))
    words = re.findall(r"\w+", text.lower())
    counts = collections.Counter(words)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))
    json.dump(
        {
            "words": len(words),
            "lines": len(text.splitlines()),
            "characters": len(text),
            "top_words": [{"word": w, "count": c} for w, c in ranked[:top]],
        },
        sys.stdout,
        ensure_ascii=False,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
