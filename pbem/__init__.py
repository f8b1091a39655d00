"""Play by email: packets, keys, dice, ASCII armour and verification."""
