"""Grimoire: 2-5 wizards choose spells in secret, turn order follows the choices, then a card draft."""
