"use strict";
(function () {
  const data = JSON.parse(document.getElementById("truclog-data").textContent);
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const $ = (id) => document.getElementById(id);
  let hand = 0;
  let step = 0;

  function make(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function cardFace(code) {
    if (code === null) {
      const down = make("span", "card down");
      down.setAttribute("aria-label", "face down");
      return down;
    }
    const rank = code.charAt(0) === "T" ? "10" : code.charAt(0);
    const suit = code.charAt(1);
    const face = make("span", "card" + (suit === "d" || suit === "h" ? " red" : ""));
    face.dataset.card = code;
    face.setAttribute("aria-label", code);
    face.append(make("span", "rank", rank));
    if (suit) face.append(make("span", "suit", SUITS[suit]));
    return face;
  }

  function played(pair) {
    const box = make("span", "play");
    box.dataset.player = pair[0];
    box.append(cardFace(pair[1]), make("span", "by", pair[0]));
    return box;
  }

  function drawSeats(table) {
    const seats = $("seats");
    seats.replaceChildren();
    for (const seat of table.seats) {
      const box = make("div", "seat" + (seat.name === table.to_act ? " to-act" : ""));
      box.dataset.player = seat.name;
      const who = make("div", "who", seat.name);
      if (data.players.length === 4) who.append(make("span", "side", "(" + seat.team + ")"));
      if (seat.dealer) who.append(make("span", "tag", "deals"));
      const cards = make("div", "cards");
      for (const code of seat.cards) cards.append(cardFace(code));
      box.append(who, cards);
      seats.append(box);
    }
  }

  function drawTricks(table) {
    const trick = $("trick");
    trick.replaceChildren(...table.trick.map(played));
    const tricks = $("tricks");
    tricks.replaceChildren();
    for (const done of table.tricks) {
      const row = make("li");
      const cards = make("span", "cards");
      for (const pair of done.cards) cards.append(played(pair));
      row.append(cards, make("span", "won", done.tied ? "tied" : "→ " + done.won));
      tricks.append(row);
    }
  }

  function drawEvents(steps) {
    const list = $("events");
    list.replaceChildren();
    steps.forEach(function (moment, index) {
      const item = make("li", moment.kind, moment.text);
      if (moment.error) item.classList.add("error");
      if (moment.skipped) item.classList.add("skipped");
      if (moment.note) item.classList.add("noted");
      if (moment.marks.length) item.classList.add("marked");
      if (moment.review) {
        const grade = moment.review.grade;
        item.append(" ", make("span", "badge grade-" + grade, grade));
      }
      item.addEventListener("click", function () { go(hand, index); });
      list.append(item);
    });
  }

  function draw() {
    const current = data.hands[hand];
    const moment = current.steps[step];
    const table = moment.table;
    $("heading").textContent =
      "Hand " + current.number + " · " + current.dealer + " deals" +
      (table.to_act ? " · " + table.to_act + " to act" : "");
    drawSeats(table);
    drawTricks(table);
    $("value").textContent =
      "Value " + table.value + (table.reste ? " (reste)" : "") + (table.raise ? " · " + table.raise : "");
    $("score").textContent =
      "Score " + table.score.map((pair) => pair[0] + " " + pair[1]).join(" · ") +
      " (target " + data.target + ")";
    $("ending").textContent = [table.ending, table.winner].filter(Boolean).join(" · ");
    $("event").textContent = "line " + moment.line + ": " + moment.text;
    $("review").textContent = moment.review ? moment.review.text : "";
    $("review").className = moment.review ? "grade-" + moment.review.grade : "";
    $("note").textContent = moment.note ? "✎ " + moment.note : "";
    $("marks").replaceChildren(...moment.marks.map((mark) => make("span", "mark", mark)));
    $("problems").replaceChildren(...moment.problems.map((text) => make("li", null, text)));
    $("position").textContent = "step " + (step + 1) + " / " + current.steps.length;
    $("hand-label").textContent = "hand " + current.number + " (" + (hand + 1) + " / " + data.hands.length + ")";
    $("first").disabled = $("back").disabled = step === 0;
    $("last").disabled = $("forward").disabled = step === current.steps.length - 1;
    $("previous-hand").disabled = hand === 0;
    $("next-hand").disabled = hand === data.hands.length - 1;
    const items = $("events").children;
    for (let i = 0; i < items.length; i += 1) items[i].classList.toggle("current", i === step);
  }

  function go(toHand, toStep) {
    if (toHand < 0 || toHand >= data.hands.length) return;
    const changed = toHand !== hand;
    hand = toHand;
    const steps = data.hands[hand].steps;
    step = Math.max(0, Math.min(toStep, steps.length - 1));
    if (changed) drawEvents(steps);
    draw();
  }

  $("game").textContent = data.game;
  $("about").textContent = [data.date, data.rules + " to " + data.target, data.teams.join(" v "), data.view]
    .filter(Boolean).join(" · ");
  $("hands").hidden = data.hands.length < 2;
  $("first").addEventListener("click", () => go(hand, 0));
  $("back").addEventListener("click", () => go(hand, step - 1));
  $("forward").addEventListener("click", () => go(hand, step + 1));
  $("last").addEventListener("click", () => go(hand, Infinity));
  $("previous-hand").addEventListener("click", () => go(hand - 1, 0));
  $("next-hand").addEventListener("click", () => go(hand + 1, 0));
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = {
      ArrowRight: [hand, step + 1], ArrowDown: [hand, step + 1],
      ArrowLeft: [hand, step - 1], ArrowUp: [hand, step - 1],
      Home: [hand, 0], End: [hand, Infinity],
      PageDown: [hand + 1, 0], PageUp: [hand - 1, 0],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    go(move[0], move[1]);
  });
  if (data.hands.length === 0) {
    $("event").textContent = "This game has no hands.";
    return;
  }
  drawEvents(data.hands[0].steps);
  draw();
})();
