// The interview clock: counts down to the server's end time and, at zero, opens the report
// (the server locks answers at that time whatever this script does).
(function () {
  "use strict";
  var clock = document.getElementById("clock");
  var left = document.getElementById("clock-left");
  if (!clock || !left) return;
  var ends = Number(clock.getAttribute("data-ends-at"));
  function tick() {
    var ms = Math.max(0, ends - Date.now());
    var s = Math.floor(ms / 1000);
    var m = Math.floor(s / 60);
    left.textContent = m + ":" + String(s % 60).padStart(2, "0");
    if (ms <= 0) {
      window.location.assign(clock.getAttribute("data-report"));
      return;
    }
    window.setTimeout(tick, 1000);
  }
  tick();
})();
