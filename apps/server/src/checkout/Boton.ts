/**
 * `GET /boton.js`: a merchant puts
 * `<script src="{base_url}/boton.js" data-link="<link id>" [data-abrir="ventana"]></script>`
 * on its page and gets a pay button that opens the link's payment page, in the same tab or a
 * popup. It carries no key: the link id is all the payer's page needs. The button's address says
 * `?origen=boton`, so a link made through the API and opened from it counts as `boton`.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { precompressed } from "../http/Compression.js"

export const boton = String.raw`(function () {
  "use strict";
  var scripts = document.querySelectorAll("script[data-link]");
  Array.prototype.forEach.call(scripts, function (s) {
    if (s.getAttribute("data-switch-listo")) return;
    s.setAttribute("data-switch-listo", "1");
    var id = (s.getAttribute("data-link") || "").replace(/^.*\/l\//, "").replace(/[^0-9a-fA-F-]/g, "");
    if (!id) return;
    var url = new URL("/l/" + id + "?origen=boton", s.src).toString();
    var a = document.createElement("a");
    a.href = url;
    a.textContent = s.getAttribute("data-texto") || "Pagar con Switch";
    a.setAttribute("style", "display:inline-block;padding:.7em 1.4em;background:#174ea6;color:#fff;" +
      "border-radius:.4em;font:600 16px system-ui,sans-serif;text-decoration:none");
    if (s.getAttribute("data-abrir") === "ventana") {
      a.addEventListener("click", function (e) {
        var w = window.open(url, "switch-pago", "popup,width=460,height=760");
        if (w) { e.preventDefault(); w.focus(); }
      });
    }
    s.parentNode.insertBefore(a, s.nextSibling);
  });
})();
`

export const BotonLive = HttpApiBuilder.Router.use((router) =>
  router.get(
    "/boton.js",
    Effect.succeed(
      HttpServerResponse.uint8Array(precompressed(new TextEncoder().encode(boton)), {
        contentType: "text/javascript; charset=utf-8",
        headers: {
          "cache-control": "public, max-age=3600",
          "access-control-allow-origin": "*",
          "x-content-type-options": "nosniff"
        }
      })
    )
  )
)
