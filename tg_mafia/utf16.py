"""Telegram counts a text's length (its 4,096 limit, its entities' offsets)
in UTF-16 code units: an emoji outside the basic plane counts 2."""


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
