"""What the engine says of a refused action is worded for the table it happened at:
two players, or four in two teams (partners opposite; the deal passes to the next
player, and the player after the dealer may ask for a redeal)."""

from __future__ import annotations

from shorthand import refused, run

from truclog.engine.state import Code, State

FOUR = ["Ana", "Bea", "Cid", "Dan"]  # Ana and Cid against Bea and Dan
DEAL_FOUR = "Dan deals Ana=7h,Qh,9h Bea=Ah,Kh,Th Cid=7s,Qs,9s Dan=As,Ks,Ts"
DEAL_TWO = "Marc deals Ana=7h,Qh,9h Marc=Ah,Kh,Th"


def four(*lines: str) -> State:
    return run(State.new(FOUR, dealer="Dan", rules="classic"), *lines)


def two(*lines: str) -> State:
    return run(State.new(["Ana", "Marc"], dealer="Marc", rules="classic"), *lines)


def test_a_raise_after_the_partners_raise_names_the_partner() -> None:
    state = four(DEAL_FOUR, "Ana raise 2", "Bea accept", "Ana 9h", "Bea Th")
    error = refused(state, "Cid raise 3", Code.RAISE_TWICE)
    assert error.message == (
        "Cid cannot raise: partner Ana raised last, and a side cannot raise twice in a row "
        "(classic: alternate raises)"
    )


def test_a_second_raise_by_the_same_player_is_twice_in_a_row() -> None:
    state = two(DEAL_TWO, "Ana raise 2", "Marc accept")
    error = refused(state, "Ana raise 3", Code.RAISE_TWICE)
    assert error.message == "Ana cannot raise twice in a row (classic: alternate raises)"


def test_with_four_players_the_deal_passes_to_the_next_player() -> None:
    state = four(DEAL_FOUR, "Ana raise 2", "Bea fold")
    error = refused(state, "Bea deals #2", Code.DEAL_WRONG_DEALER)
    assert error.message == (
        "Bea cannot deal: Ana deals this hand (the deal passes to the next player)"
    )


def test_with_two_players_the_deal_alternates() -> None:
    state = two(DEAL_TWO, "Ana raise 2", "Marc fold")
    error = refused(state, "Marc deals #2", Code.DEAL_WRONG_DEALER)
    assert error.message == "Marc cannot deal: Ana deals this hand (the deal alternates)"


def test_with_four_players_the_player_after_the_dealer_asks_for_a_redeal() -> None:
    for asker in ("Bea", "Cid", "Dan"):
        error = refused(four(DEAL_FOUR), f"{asker} redeal yes", Code.REDEAL_WRONG_PLAYER)
        assert error.message == (
            f"{asker} cannot ask for a redeal: only Ana (next after the dealer) may"
        )


def test_with_two_players_the_player_who_did_not_deal_asks_for_a_redeal() -> None:
    error = refused(two(DEAL_TWO), "Marc redeal yes", Code.REDEAL_WRONG_PLAYER)
    assert error.message == "Marc cannot ask for a redeal: only Ana (who did not deal) may"


def raise_words(state: State) -> tuple[str, str]:
    """How the validator's list of legal moves, and the recorder's menu, say the raises."""
    from truclog.tui.record.commands import legal_choices
    from truclog.validate.checker import describe_legal

    said = next(w for w in describe_legal(state) if "raises" in w)
    menu = next(c.label for c in legal_choices(state) if c.keys == "r N")
    return said, menu


def test_raises_without_an_upper_bound_read_as_a_lowest_value_or_more() -> None:
    said, menu = raise_words(two(DEAL_TWO))
    assert said == "Ana raises to 2 or more"
    assert menu == "Ana raises to N (3 or more)"


def test_the_highest_raise_is_named_only_when_the_rules_set_one() -> None:
    rules = {"preset": "classic", "max_value": 6}
    state = run(State.new(["Ana", "Marc"], dealer="Marc", rules=rules), DEAL_TWO)
    said, menu = raise_words(state)
    assert said == "Ana raises to 2 or more, up to 6"
    assert menu == "Ana raises to N (3 or more, up to 6)"
