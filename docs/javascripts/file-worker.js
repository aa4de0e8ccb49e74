/* Search from disk: browsers refuse `new Worker(url)` for a page opened from file://, so there the
 * search worker runs in a hidden iframe instead.  An iframe without a src (about:blank) shares the
 * page's origin, so the page can hand it messages and read its answers directly; the worker script
 * is loaded into it with an ordinary <script> element, which file:// allows.  Only what Material's
 * search worker uses is provided: postMessage both ways, "message" listeners, onmessage, terminate.
 * Served over http(s) nothing is replaced.  (Loaded through config.extra.polyfills by
 * docs/hooks/search_offline.py, before Material's bundle.) */
(function () {
  "use strict";
  if (window.location.protocol !== "file:") {
    return;
  }

  function FrameWorker(url) {
    var self = this;
    var pending = [];
    var ready = false;
    var target = document.createDocumentFragment();   // event dispatch on the page side
    var frame = document.createElement("iframe");
    frame.hidden = true;
    frame.setAttribute("aria-hidden", "true");
    frame.setAttribute("tabindex", "-1");
    (document.body || document.documentElement).appendChild(frame);
    var scope = frame.contentWindow;

    this.onmessage = null;
    this.onerror = null;

    // the worker's global postMessage answers the page
    scope.postMessage = function (data) {
      var event = new MessageEvent("message", { data: data });
      if (typeof self.onmessage === "function") {
        self.onmessage(event);
      }
      target.dispatchEvent(event);
    };

    function deliver(data) {
      scope.dispatchEvent(new scope.MessageEvent("message", { data: data }));
    }

    this.postMessage = function (data) {
      if (ready) {
        deliver(data);
      } else {
        pending.push(data);
      }
    };
    this.addEventListener = function (type, listener, options) {
      target.addEventListener(type, listener, options);
    };
    this.removeEventListener = function (type, listener, options) {
      target.removeEventListener(type, listener, options);
    };
    this.terminate = function () {
      frame.remove();
    };

    var script = scope.document.createElement("script");
    script.src = new URL(url, window.location.href).href;
    script.onload = function () {
      ready = true;
      pending.splice(0).forEach(deliver);
    };
    script.onerror = function () {
      var event = new ErrorEvent("error", { message: "search worker could not be loaded from " + script.src });
      if (typeof self.onerror === "function") {
        self.onerror(event);
      }
      target.dispatchEvent(event);
    };
    scope.document.head.appendChild(script);
  }

  window.Worker = FrameWorker;
})();
