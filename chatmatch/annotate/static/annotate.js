// Keyboard shortcuts of the judging page: 1/A, 2/B, 3/C answer the selected question and
// select the next unanswered one; arrow keys (or J/K) move; Enter saves when every question
// is answered. Without this script the page still works with the mouse.
(function () {
  "use strict";
  var form = document.getElementById("judge-form");
  if (!form) { return; }
  var questions = Array.prototype.slice.call(form.querySelectorAll("fieldset.question"));
  var status = document.getElementById("status");
  var keys = {"1": "a", "a": "a", "2": "b", "b": "b", "3": "tie", "c": "tie", "0": "tie"};
  var current = 0;
  var sent = false;

  function unanswered() {
    return questions.filter(function (q) { return !q.querySelector("input:checked"); });
  }
  function select(i) {
    current = Math.max(0, Math.min(questions.length - 1, i));
    questions.forEach(function (q, j) { q.classList.toggle("active", j === current); });
    questions[current].scrollIntoView({block: "nearest"});
  }
  function report() {
    var left = unanswered().length;
    status.textContent = left ? (questions.length - left) + " of " + questions.length +
      " questions answered" : "All answered: press Enter to save and go on.";
  }
  function answer(value) {
    var input = questions[current].querySelector("input[value='" + value + "']");
    input.checked = true;
    var next = unanswered()[0];
    if (next) { select(questions.indexOf(next)); }
    report();
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (Object.prototype.hasOwnProperty.call(keys, k)) {
      e.preventDefault(); answer(keys[k]);
    } else if (k === "ArrowDown" || k === "j") {
      e.preventDefault(); select(current + 1);
    } else if (k === "ArrowUp" || k === "k") {
      e.preventDefault(); select(current - 1);
    } else if (k === "Enter") {
      e.preventDefault();
      var missing = unanswered();
      if (missing.length) {
        select(questions.indexOf(missing[0]));
        status.textContent = "Answer question " + (questions.indexOf(missing[0]) + 1) +
          " first (\"can't tell\" is an answer too).";
      } else if (!sent) {
        sent = true; form.submit();
      }
    }
  });
  questions.forEach(function (q, i) {
    q.addEventListener("click", function () { select(i); });
    q.addEventListener("change", report);
  });
  form.addEventListener("submit", function () { sent = true; });
  var first = unanswered()[0];
  select(first ? questions.indexOf(first) : 0);
  report();
}());
