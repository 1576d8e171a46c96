// Live progress of a queued or running validation: the page subscribes to
// the validation's server-sent events, shows each progress event and
// reloads when the verdict is in. Without this script the page refreshes
// itself every two seconds (a <noscript> meta refresh).
(function () {
  "use strict";
  var section = document.querySelector("[data-events]");
  if (!section || !window.EventSource) {
    return;
  }
  var text = section.querySelector("[data-progress-text]");
  var bar = section.querySelector("progress");
  var events = new EventSource(section.getAttribute("data-events"));
  var reloading = false;

  function reload(delay) {
    if (reloading) {
      return;
    }
    reloading = true;
    events.close();
    window.setTimeout(function () { window.location.reload(); }, delay);
  }

  events.addEventListener("progress", function (e) {
    var p;
    try {
      p = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    var s = p.phase || "";
    if (p.total > 0) {
      s += ": " + p.done + " of " + p.total;
      if (bar) {
        bar.max = p.total;
        bar.value = p.done;
        bar.textContent = p.done + " of " + p.total;
      }
    }
    if (text && s) {
      text.textContent = s;
    }
  });
  events.addEventListener("done", function () { reload(0); });
  // A closed stream (the API refused it, or the server went away) falls
  // back to what the page does without scripts: reload in two seconds.
  events.addEventListener("error", function () {
    if (events.readyState === EventSource.CLOSED) {
      reload(2000);
    }
  });
})();
