/**
 * The payment page's only script, inline at the end of the page (the CSP allows it by its hash,
 * no other inline script). Once its handlers are attached it sets `data-listo` on `#app` (the
 * page's time then, in ms): the page is interactive (tests/bench/slow3g.mjs measures it).
 * It asks for the code, pays, follows the processing screen, counts down the return to the
 * merchant and remembers the payer's bank data in localStorage only: on a personal account's
 * page only when the payer ticks "Guardar mis datos", and "Olvidar mis datos" erases it.
 * With the card pilot it opens the processor's form and, while that form holds the link, offers
 * to pay another way. A tip is read as Venezuelans write it, with the same pattern as the server
 * (`Money.WRITTEN_AMOUNT`), and sent as typed.
 */
import { LinkMachine, Money } from "@switch/core"

export const js = String.raw`(function () {
  "use strict";
  var app = document.getElementById("app");
  if (!app) return;
  var d = app.dataset;
  var meta = document.querySelector('meta[name="csrf"]');
  var csrf = meta ? meta.getAttribute("content") : "";
  var base = "/l/" + d.link;
  var KEY = "switch-pagador";
  var FIELDS = ["banco", "tipo_doc", "identificacion", "telefono", "nombre"];
  var NAMES = { banco: "Banco", identificacion: "Documento", telefono: "Teléfono", otp: "Código",
    propina: "Propina", nombre: "Nombre", alta_cliente: "Cliente" };
  function $(id) { return document.getElementById(id); }
  function show(el, on) { if (el) el.hidden = !on; }
  function guard(e) { e.preventDefault(); e.returnValue = ""; return ""; }
  function leave(url) { window.removeEventListener("beforeunload", guard); location.assign(url); }
  function reload() { window.removeEventListener("beforeunload", guard); location.reload(); }
  function post(path, body) {
    return fetch(base + path, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "content-type": "application/json", "x-csrf": csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (b) { return { status: r.status, body: b }; });
    });
  }

  if (d.redirect) {
    var left = 3, seg = $("seg");
    var timer = setInterval(function () {
      left -= 1;
      if (seg) seg.textContent = String(Math.max(left, 0));
      if (left <= 0) { clearInterval(timer); leave(d.redirect); }
    }, 1000);
  }
  if (d.refrescar) setTimeout(reload, Number(d.refrescar) * 1000);

  /** The processing screen, at once: the bank may take seconds to answer the payment. */
  function showProcessing() {
    show($("pago"), false);
    show($("procesando"), true);
    window.addEventListener("beforeunload", guard);
    var h = $("procesando-titulo");
    if (h) h.focus();
  }
  /** The link states in which a payment is under way (LinkMachine.InFlightStates). */
  var IN_FLIGHT = ${JSON.stringify(LinkMachine.InFlightStates)};
  /** Polls the link until the bank's answer settles it; only once the payment was taken. */
  function follow(elapsed) {
    var start = Date.now() - (elapsed || 0);
    function tick() {
      if (Date.now() - start >= 90000) show($("lento"), true);
      fetch(base + "/estado", { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (st) {
          if (IN_FLIGHT.indexOf(st.estado) >= 0) setTimeout(tick, 2000);
          else reload();
        }, function () { setTimeout(tick, 5000); });
    }
    tick();
  }
  if (d.estado === "procesando") { showProcessing(); follow(Number(d.transcurrido) || 0); }

  /** The card processor's form holds the link: follow it, and offer to pay another way. */
  if (d.estado === "tarjeta") {
    follow(0);
    var otra = $("otra-forma"), terr = $("tarjeta-error");
    if (otra) otra.addEventListener("click", function () {
      otra.disabled = true;
      post("/tarjeta/otra-forma", {}).then(function (r) {
        if (r.status === 200) { reload(); return; }
        otra.disabled = false;
        if (terr) {
          terr.textContent = (r.body && typeof r.body.detail === "string" && r.body.detail) || "No pudimos consultar tu pago con tarjeta. Intenta de nuevo.";
          show(terr, true);
          terr.focus();
        }
      }, function () { otra.disabled = false; });
    });
  }

  /** Handlers attached: the page is interactive (the bench reads this mark). */
  function ready() { app.setAttribute("data-listo", String(Math.round(window.performance ? performance.now() : 0))); }
  var form = $("pago");
  if (!form) { ready(); return; }
  var alerta = $("error"), info = $("info"), pedir = $("pedir"), pagar = $("pagar"), volver = $("volver");
  var olvidar = $("olvidar"), alta = $("alta_cliente");
  try {
    var saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved) {
      FIELDS.forEach(function (f) { var el = $(f); if (el && saved[f] && !el.value) el.value = saved[f]; });
      show(olvidar, true);
    }
  } catch (e) { /* storage unavailable: nothing remembered */ }
  if (olvidar) olvidar.addEventListener("click", function () {
    try { localStorage.removeItem(KEY); } catch (e) { /* nothing stored */ }
    FIELDS.forEach(function (f) { var el = $(f); if (el) el.value = el.tagName === "SELECT" ? el.options[0].value : ""; });
    if (alta) alta.checked = false;
    show(olvidar, false);
    info.textContent = "Borramos tus datos de este navegador.";
    $("banco").focus();
  });

  function values() {
    var v = {};
    FIELDS.forEach(function (f) { var el = $(f); if (el) v[f] = el.value.trim(); });
    return v;
  }
  function remember(v) {
    // A personal account's checkbox is the payer's choice to be remembered; unticked, nothing is kept.
    if (d.tipo === "personal" && !v.alta_cliente) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ banco: v.banco, tipo_doc: v.tipo_doc,
        identificacion: v.identificacion, telefono: v.telefono, nombre: v.nombre }));
    } catch (e) { /* private mode */ }
  }
  function message(b) {
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    var fe = b && b.detail && b.detail.fieldErrors;
    if (!fe) return (b && (b.motivo || (typeof b.detail === "string" && b.detail))) || "No pudimos procesar la solicitud. Intenta de nuevo.";
    return Object.keys(fe).map(function (k) {
      var el = $(k);
      if (el) el.setAttribute("aria-invalid", "true");
      return (NAMES[k] || k) + ": " + fe[k].join(", ");
    }).join(". ") + ".";
  }
  function fail(text) { alerta.textContent = text; show(alerta, true); alerta.focus(); }
  var WRITTEN = new RegExp(${JSON.stringify(Money.WRITTEN_AMOUNT.source)});
  /** Cents of an amount typed as in Venezuela (1.234,56; 1.234 is a thousand), or -1. */
  function cents(text) {
    var m = WRITTEN.exec((text || "").trim());
    if (!m) return -1;
    var whole = m[3] !== undefined ? m[3] : m[1].replace(/\./g, ""), frac = m[3] !== undefined ? m[4] : (m[2] || "");
    return frac.length > 2 || whole.replace(/^0+/, "").length > 12 ? -1 : Number(whole) * 100 + Number((frac + "00").slice(0, 2));
  }
  function bs(c) {
    return "Bs " + String(Math.floor(c / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ".") + "," + ("0" + (c % 100)).slice(-2);
  }
  var propina = $("propina");
  function total() { return Number(d.monto) + Math.max(propina ? cents(propina.value) : 0, 0); }
  if (propina) propina.addEventListener("input", function () {
    pagar.textContent = "Pagar " + bs(total());
    if (propina.value.trim() !== "" && cents(propina.value) < 0) propina.setAttribute("aria-invalid", "true");
    else propina.removeAttribute("aria-invalid");
  });

  if (pedir) pedir.addEventListener("click", function () {
    pedir.disabled = true;
    show(alerta, false);
    post("/codigo", values()).then(function (r) {
      pedir.disabled = false;
      if (r.status === 200) {
        info.textContent = r.body.mensaje + (r.body.aviso ? " " + r.body.aviso : "");
        $("otp").focus();
      } else if (r.status === 409 && r.body.error === "link_no_disponible") reload();
      else fail(message(r.body));
    }, function () { pedir.disabled = false; fail("Sin conexión. Revisa tu internet e intenta de nuevo."); });
  });

  var busy = false;
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (busy) return;
    busy = true;
    pagar.disabled = true;
    show(alerta, false);
    var v = values();
    v.otp = $("otp").value.trim();
    // Sent as typed: the server reads it as this page does.
    if (propina) v.propina = propina.value.trim();
    v.alta_cliente = !!(alta && alta.checked);
    remember(v);
    var debited = bs(total());
    $("procesando-total").textContent = debited;
    var monto = document.querySelector(".monto"), before = monto ? monto.textContent : "";
    if (monto) monto.textContent = debited;
    showProcessing();
    var sent = Date.now();
    /** The bank did not take the payment: back to the form, with why. */
    function back(text) {
      window.removeEventListener("beforeunload", guard);
      show($("procesando"), false);
      show(form, true);
      if (monto) monto.textContent = before;
      busy = false;
      pagar.disabled = false;
      fail(text);
    }
    post("/pagar", v).then(function (r) {
      var b = r.body;
      if (r.status === 200 && b.estado === "rechazado") {
        $("otp").value = "";
        back(b.motivo + " Puedes intentarlo de nuevo con un código nuevo.");
        show(volver, true);
      } else if (r.status === 200 && b.estado === "procesando") follow(Date.now() - sent);
      else if (r.status === 200 || (r.status === 409 && b.error === "link_no_disponible")) reload();
      else back(message(b));
    }, function () {
      back("Sin conexión. Revisa tu internet; si tu banco te debitó, recarga la página antes de pagar otra vez.");
    });
  });
  /** Card payment: the processor's own form; the tip typed here goes with it. */
  var tarjeta = $("pagar-tarjeta");
  if (tarjeta) tarjeta.addEventListener("click", function () {
    if (busy) return;
    busy = true;
    tarjeta.disabled = true;
    show(alerta, false);
    var body = {};
    if (propina && propina.value.trim() !== "") body.propina = propina.value.trim();
    post("/tarjeta", body).then(function (r) {
      if (r.status === 200 && r.body.url_formulario) { leave(r.body.url_formulario); return; }
      busy = false;
      tarjeta.disabled = false;
      if (r.status === 409 && r.body.error === "link_no_disponible") reload();
      else fail(message(r.body));
    }, function () {
      busy = false;
      tarjeta.disabled = false;
      fail("Sin conexión. Revisa tu internet e intenta de nuevo.");
    });
  });
  if (volver) volver.addEventListener("click", function () { leave(d.rechazado); });
  ready();
})();
`
