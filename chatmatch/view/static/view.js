// chatmatch view: while a run plays, ask the server for the run's version every few
// seconds; when it moved, fetch this page again and swap its <main> in place (no reload,
// the scroll position stays). Read-only: only GET requests.
(function () {
  "use strict";
  const live = document.getElementById("live");
  if (!live) { return; }
  const every = Math.max(500, parseInt(live.dataset.poll || "2000", 10));
  let busy = false;
  async function tick() {
    if (busy) { return; }
    busy = true;
    try {
      const now = document.getElementById("live");
      const state = await fetch(now.dataset.state, {cache: "no-store"});
      if (!state.ok) { return; }
      const version = (await state.json()).version;
      if (version && version !== now.dataset.version) {
        const page = await fetch(location.href, {cache: "no-store"});
        const doc = new DOMParser().parseFromString(await page.text(), "text/html");
        const fresh = doc.querySelector("main");
        if (fresh) {
          document.querySelector("main").replaceWith(document.adoptNode(fresh));
          document.body.dataset.refreshed = String(parseInt(document.body.dataset.refreshed || "0", 10) + 1);
        }
      }
    } catch (err) {
      // the server stopped: try again at the next tick
    } finally {
      busy = false;
    }
  }
  setInterval(tick, every);
}());
