"""The computer acts (``ardennes --vs-bot``): its player-turn, or a decision of its side in
yours. Nothing here is yours to do: no prompt with keys, no lit choices; the panel says what
the computer is doing in its own name (``The computer (German) decides: Ex losses, need 5``),
and the play screen shows its orders as they play out."""

from __future__ import annotations

from rich.text import Text

import rules.ao
from ardennes_tui.modes.base import Host, Mode
from ardennes_tui.present import game_view
from ardennes_tui.present.combat_text import side_name

DECISION_WORDS = {
    "waive_immunity": "whether to waive the Ar/Dr immunity",
    "losses": "its Ex losses",
    "retreat": "the retreat",
    "advance": "an advance",
}
"""What each kind of decision is, said of the computer."""


class ComputerMode(Mode):
    """Any state in which the computer (``side``) gives the next command."""

    def __init__(self, host: Host, options: rules.ao.Options, side: rules.ao.Side) -> None:
        super().__init__(host, options)
        self.computer = side

    @property
    def who(self) -> str:
        """``The computer (German)``."""
        return f"The computer ({side_name(self.computer)})"

    def doing(self) -> str:
        """What the computer is doing now, in one line."""
        d = self.options.decision
        if d is not None:
            what = DECISION_WORDS.get(d.kind, d.kind)
            if d.kind == "losses":
                what += f" (need {d.need})"
            elif d.unit:
                what += f" of {d.unit}"
            elif d.hex:
                what += f" into {d.hex}"
            return f"{self.who} chooses {what}"
        state = self.game.state
        phase = game_view.PHASE_NAMES[state.phase]
        return f"{self.who} plays its GT{state.turn} {phase} Phase"

    def hint(self) -> str:
        return f"{self.doing()}: Space skips the show, R plays its last turn back"

    def header(self) -> Text:
        text = Text()
        text.append(self.who, "bold")
        text.append(f"\n{self.doing().removeprefix(self.who + ' ')}\n")
        return text

    def hover(self, hex_id: rules.HexId) -> None:
        return None  # the computer's orders keep the message line

    def end_refusal(self) -> str:
        return self.hint()
