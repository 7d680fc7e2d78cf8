"""The simulated players' names and chatter, per language (the demo and the play page)."""

from __future__ import annotations

NAMES = {
    "ru": "Анна Борис Вика Глеб Дима Елена Жора Зоя Игорь Катя Лёша Маша Нина Олег Петя "
    "Рита Саша Таня Уля Фёдор",
    "ro": "Ana Bogdan Cristi Dana Elena Florin Gabi Horia Ioana Julia Lucian Maria Nicu Oana "
    "Petru Raluca Sorin Tudor Vlad Zoe",
    "fr": "Amélie Bastien Chloé David Élodie Fabien Gaëlle Hugo Inès Julien Karine Léo Manon "
    "Nicolas Océane Pierre Quentin Romane Sacha Théo",
    "vi": "An Bảo Chi Dũng Giang Hà Hùng Khánh Lan Minh Nga Phúc Quân Sơn Trang Tú Uyên Việt "
    "Xuân Yến",
    "en": "Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon Kim Lee Max Ned Ona Pat Quinn Rae Sam Tom",
}
# What the simulated players say; the last line of each says thanks (moscow's thanks rule).
LINES = {
    "ru": ("Я мирный житель, честно.", "Подозреваю соседа слева.", "Спасибо."),
    "ro": ("Sunt un cetățean cinstit.", "Îl suspectez pe vecinul meu.", "Mulțumesc."),
    "fr": ("Je suis un simple citoyen.", "Je soupçonne mon voisin.", "Merci."),
    "vi": ("Tôi là dân thường, thật đấy.", "Tôi nghi người bên trái.", "Cảm ơn."),
    "en": ("I am a simple citizen.", "I suspect my neighbour.", "Thank you."),
}


def names(language: str) -> list[str]:
    """Twenty first names, enough for the largest table."""
    return NAMES[language].split()
