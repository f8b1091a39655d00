"""The AO's screens: its play screens (hot-seat, against the computer, by email), the map
viewer and the dialogs of its play (orders, go to, play aids, a game against the computer)."""
